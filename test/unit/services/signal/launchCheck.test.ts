import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseJobFile } from '../../../../src/core/jobs/jobfile';
import {
  describeCheckConfirmation,
  describeCheckSampling,
  signalCheckJob,
  signalCheckPlanFor,
} from '../../../../src/services/signal/launchCheck';
import type { Review } from '../../../../src/services/launch/review';
import { signalCheckFolder } from '../../../../src/services/signal/sampleDataset';

const demo = parseJobFile(
  readFileSync(path.resolve(__dirname, '../../../fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8'),
).jobFile!;

describe('signal check plan', () => {
  it('puts the sampled rows beside a dataset object, and beside (never inside) a dataset folder the service would read whole', () => {
    assert.deepEqual(signalCheckFolder({ bucket: 'b', key: 'wordle/train.jsonl' }), { bucket: 'b', key: 'wordle/mtrl-signal-check/' });
    assert.deepEqual(signalCheckFolder({ bucket: 'b', key: 'train.parquet' }), { bucket: 'b', key: 'mtrl-signal-check/' });
    assert.deepEqual(signalCheckFolder({ bucket: 'b', key: 'data/wordle/' }), { bucket: 'b', key: 'data/mtrl-signal-check/' });
    assert.deepEqual(signalCheckFolder({ bucket: 'b', key: 'data/wordle' }), { bucket: 'b', key: 'data/mtrl-signal-check/' });
  });

  it('takes the planned training job’s data, runtime, role, MLflow app, group_size and sampling (recipe defaults for the rest)', () => {
    const job = {
      ...demo,
      JobConfigDocument: {
        ...demo.JobConfigDocument,
        TrainingConfig: { ...demo.JobConfigDocument.TrainingConfig, HyperParameters: { group_size: '6', temperature: '0.7' } },
      },
    };
    const plan = signalCheckPlanFor(job, { rows: 12, reward: 'sha256:abc', seed: 4 });
    const facts = demo.JobConfigDocument;
    assert.equal(plan.key.dataset, facts.InputDataConfig?.find((c) => c.ChannelName === 'train')?.DataSource?.S3DataSource?.S3Uri);
    assert.equal(plan.key.runtime, facts.AgentConfig?.BedrockAgentCoreConfig?.AgentRuntimeArn);
    assert.equal(plan.roleArn, demo.RoleArn);
    assert.equal(plan.groupSize, 6);
    assert.equal(plan.mlflow?.appArn, facts.TrainingConfig?.MlflowConfig?.MlflowResourceArn);
    assert.ok(plan.mlflow?.appArn);
    assert.deepEqual(plan.sampling, {
      temperature: '0.7',
      sampling_top_p: '1.0',
      sampling_max_tokens: '4096',
      success_threshold: '1',
      rollout_timeout: '600',
    });
    const evaluation = signalCheckJob(plan, 's3://mtrl-demo/wordle/mtrl-signal-check/0123.jsonl', new Date('2026-12-01T10:20:30Z'));
    assert.equal(evaluation.JobName, 'mtrl-signal-check-20261201102030');
    assert.equal(evaluation.JobCategory, 'AgentRFTEvaluation');
    const config = evaluation.JobConfigDocument;
    assert.equal(config.InputDataConfig?.[0].DataSource?.S3DataSource?.S3Uri, 's3://mtrl-demo/wordle/mtrl-signal-check/0123.jsonl');
    assert.equal(config.OutputDataConfig?.S3OutputPath, 's3://mtrl-demo/wordle/mtrl-signal-check/output/');
    assert.equal(config.EvaluationConfig?.HyperParameters?.eval_group_size, '6');
    assert.equal(config.EvaluationConfig?.HyperParameters?.temperature, '0.7');
    assert.equal(config.EvaluationConfig?.HyperParameters?.sampling_max_tokens, '4096');
  });

  it("without a training file the check still samples as training does (temperature 1.0), never at the evaluation's default 0, and says so", () => {
    const plan = {
      key: {
        dataset: 's3://mtrl-demo/wordle/train.jsonl',
        runtime: 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/r-AbCdEf1234',
        reward: 'r',
      },
      rows: 4,
      groupSize: 4,
      region: 'us-east-1',
      roleArn: 'arn:aws:iam::111122223333:role/MtrlJobRole',
      baseModelArn: 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b',
    };
    const hp = signalCheckJob(plan, 's3://mtrl-demo/wordle/mtrl-signal-check/1.jsonl').JobConfigDocument.EvaluationConfig?.HyperParameters;
    assert.equal(hp?.temperature, '1.0');
    assert.equal(hp?.sampling_top_p, '1.0');
    assert.match(describeCheckSampling(plan), /not at the evaluation defaults \(temperature 0\): it measures what training will see/);
    // The editor's confirmation says it too, beside the cost and the warnings (as `mtrl signal --launch` does).
    const review: Review = {
      facts: { datasets: {}, hyperparameters: {} },
      arithmetic: [],
      settings: [],
      checks: [
        { check: 'smoke', level: 'warn', message: 'No smoke test of the runtime is on record.' },
        { check: 'role', level: 'pass', message: 'Role trusts job.sagemaker.amazonaws.com.' },
      ],
      verdict: 'warn',
      estimateMissing: 'No token history for this model.',
    };
    const asked = describeCheckConfirmation({ ...plan, sampling: { temperature: '1.0' } }, review).split('\n\n');
    assert.deepEqual(asked, [
      '4 rows of s3://mtrl-demo/wordle/train.jsonl × 4 rollouts of r-AbCdEf1234.',
      'Samples as training will (temperature 1.0), not at the evaluation defaults (temperature 0): it measures what training will see.',
      'No token history for this model.',
      '⚠ No smoke test of the runtime is on record.',
    ]);
  });
});
