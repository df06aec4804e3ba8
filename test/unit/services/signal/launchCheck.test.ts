import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseJobFile } from '../../../../src/core/jobs/jobfile';
import { signalCheckJob, signalCheckPlanFor } from '../../../../src/services/signal/launchCheck';
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
});
