import { strict as assert } from 'node:assert';
import {
  buildEvaluationDocument,
  buildTrainingDocument,
  documentFacts,
  effectiveSettings,
  mlflowConfigOf,
} from '../../../../src/core/jobs/document';
import { checkHyperparameters } from '../../../../src/core/jobs/preflight';
import { baseModelArn } from '../../../../src/core/jobs/models';
import { hyperparameterProblem, nonDefaultHyperparameters, TRAINING_HYPERPARAMETERS } from '../../../../src/core/jobs/hyperparameters';

const RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234';
const MODEL = baseModelArn('us-east-1', 'openai-reasoning-gpt-oss-20b');
const MLFLOW = 'arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-1';

describe('JobConfigDocument builders', () => {
  it('builds the training document of the reference with only non-default string hyperparameters', () => {
    const doc = buildTrainingDocument({
      runtimeArn: RUNTIME,
      trainUri: 's3://bucket/wordle/train.jsonl',
      validationUri: 's3://bucket/wordle/val.jsonl',
      outputPath: 's3://bucket/output',
      baseModelArn: MODEL,
      mlflowArn: MLFLOW,
      experimentName: 'wordle',
      hyperparameters: { sampling_max_tokens: '8192', max_epochs: '20', max_steps: '100', global_batch_size: '128', learning_rate: '1e-5' },
    });
    assert.deepEqual(doc, {
      AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: RUNTIME, Qualifier: 'DEFAULT' } },
      InputDataConfig: [
        { ChannelName: 'train', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: 's3://bucket/wordle/train.jsonl' } } },
        { ChannelName: 'validation', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: 's3://bucket/wordle/val.jsonl' } } },
      ],
      OutputDataConfig: { S3OutputPath: 's3://bucket/output' },
      TrainingConfig: {
        BaseModelArn: MODEL,
        MlflowConfig: { MlflowResourceArn: MLFLOW, MlflowExperimentName: 'wordle' },
        AcceptEula: true,
        // max_steps 100 and learning_rate 1e-5 are gpt-oss-20b's own defaults; batch 128 the recipe's.
        HyperParameters: { sampling_max_tokens: '8192', max_epochs: '20' },
      },
    });
  });

  it('omits MlflowConfig without an MLflow app and ModelPackageConfig without packages', () => {
    const doc = buildTrainingDocument({
      runtimeArn: RUNTIME,
      trainUri: 's3://b/t.jsonl',
      outputPath: 's3://b/o',
      baseModelArn: MODEL,
      hyperparameters: {},
    });
    assert.equal('MlflowConfig' in (doc.TrainingConfig as object), false);
    assert.equal('ModelPackageConfig' in doc, false);
    assert.equal((doc.InputDataConfig as unknown[]).length, 1);
  });

  it('builds the evaluation document with FLAT names and every value a string', () => {
    const doc = buildEvaluationDocument({
      runtimeArn: RUNTIME,
      evaluationUri: 's3://b/val.jsonl',
      outputPath: 's3://b/eval',
      baseModelArn: MODEL,
      mlflowArn: MLFLOW,
      experimentName: 'wordle-eval',
      hyperparameters: { sampling_max_tokens: '8192' },
    });
    const hp = (doc.EvaluationConfig as { HyperParameters: Record<string, string> }).HyperParameters;
    // Only what was set: the service's documented defaults (temperature 0, concurrency 96, pass@1…32) apply to the rest.
    assert.deepEqual(hp, { sampling_max_tokens: '8192' });
    assert.deepEqual(doc.OutputDataConfig, {
      S3OutputPath: 's3://b/eval',
      MlflowConfig: { MlflowResourceArn: MLFLOW, MlflowExperimentName: 'wordle-eval', MlflowRunName: 'base-model-eval' },
    });
    assert.equal('ModelPackageConfig' in doc, false, 'the base model has no model package');
    assert.deepEqual(doc.StoppingCondition, { MaxRuntimeInSeconds: 86400 }, "the SDK evaluator's default");
    assert.equal(checkHyperparameters('AgentRFTEvaluation', hp).level, 'pass');
  });

  it('adds ModelPackageConfig only when evaluating a trained adapter', () => {
    const adapter = 'arn:aws:sagemaker:us-east-1:111122223333:model-package/wordle/1';
    const doc = buildEvaluationDocument({
      runtimeArn: RUNTIME,
      evaluationUri: 's3://b/v',
      outputPath: 's3://b/o',
      baseModelArn: MODEL,
      hyperparameters: {},
      adapterModelPackageArn: adapter,
    });
    assert.deepEqual(doc.ModelPackageConfig, { InputModelPackageArn: adapter });
  });

  it("an evaluation with nothing set writes no hyperparameter, the SDK's 86,400 s and experiment mtrl-eval-<model id>", () => {
    const doc = buildEvaluationDocument({
      runtimeArn: RUNTIME,
      evaluationUri: 's3://b/val.jsonl',
      outputPath: 's3://b/eval',
      baseModelArn: MODEL,
      mlflowArn: MLFLOW,
      hyperparameters: {},
    });
    assert.deepEqual(doc.EvaluationConfig?.HyperParameters, {});
    assert.equal(doc.StoppingCondition?.MaxRuntimeInSeconds, 86400);
    assert.equal(doc.OutputDataConfig?.MlflowConfig?.MlflowExperimentName, 'mtrl-eval-openai-reasoning-gpt-oss-20b');
    const settings = Object.fromEntries(effectiveSettings('AgentRFTEvaluation', doc).map((s) => [s.name, `${s.value} (${s.source})`]));
    assert.equal(settings.temperature, '0 (service default)');
    assert.equal(settings.rollout_max_concurrency, '96 (service default)');
    assert.equal(settings.pass_k_values, '[1,2,4,8,16,32] (service default)');
    assert.equal(settings.rollout_timeout, '600 (service default)');
    assert.equal(settings.rollout_max_retries, '3 (service default)');
    assert.equal(settings['StoppingCondition.MaxRuntimeInSeconds'], '86400 (SDK default)');
    assert.equal(settings.MlflowExperimentName, 'mtrl-eval-openai-reasoning-gpt-oss-20b (SDK default)');
  });

  it("a training document's settings: the file's values, else the model's service default", () => {
    const doc = buildTrainingDocument({
      runtimeArn: RUNTIME,
      trainUri: 's3://b/t',
      outputPath: 's3://b/o',
      baseModelArn: MODEL,
      hyperparameters: { max_steps_off_policy: '0' },
    });
    const settings = Object.fromEntries(effectiveSettings('AgentRFT', doc).map((s) => [s.name, `${s.value} (${s.source})`]));
    assert.equal(settings.max_steps_off_policy, '0 (your file)');
    assert.equal(settings.max_steps, '100 (service default)', "gpt-oss-20b's own default");
    assert.equal(settings.adam_beta2, '0.95 (service default)');
  });

  it('reads the facts back from a document', () => {
    const doc = buildTrainingDocument({
      runtimeArn: RUNTIME,
      trainUri: 's3://b/t',
      validationUri: 's3://b/v',
      outputPath: 's3://b/o',
      baseModelArn: MODEL,
      hyperparameters: { group_size: '4' },
    });
    const facts = documentFacts('AgentRFT', doc);
    assert.equal(facts.runtimeArn, RUNTIME);
    assert.deepEqual(facts.datasets, { train: 's3://b/t', validation: 's3://b/v' });
    assert.deepEqual(facts.hyperparameters, { group_size: '4' });
    assert.equal(facts.baseModelArn, MODEL);
  });
});

describe('hyperparameters', () => {
  const spec = (name: string) => TRAINING_HYPERPARAMETERS.find((s) => s.name === name)!;

  it('checks ranges, sets and kinds', () => {
    assert.equal(hyperparameterProblem(spec('sampling_max_tokens'), '8192'), undefined);
    assert.match(hyperparameterProblem(spec('sampling_max_tokens'), '16384')!, /\[512, 8192\]/);
    assert.match(hyperparameterProblem(spec('global_batch_size'), '100')!, /one of 32, 64, 128/);
    assert.match(hyperparameterProblem(spec('group_size'), '2.5')!, /whole number/);
    assert.match(hyperparameterProblem(spec('learning_rate'), '0')!, /\(0, 0.01\]/);
    assert.equal(hyperparameterProblem(spec('learning_rate'), '1e-5'), undefined);
    assert.match(hyperparameterProblem(spec('loss_fn'), 'adam')!, /importance_sampling, ppo, cispo/);
    assert.match(hyperparameterProblem(spec('pass_k_values'), '1,2')!, /JSON list/);
  });

  it('treats 1 and 1.0 as the same value when dropping defaults', () => {
    assert.deepEqual(nonDefaultHyperparameters({ temperature: '1', group_size: '16', custom: 'x' }), { group_size: '16', custom: 'x' });
  });

  it('rejects the SDK evaluator names with the accepted ones', () => {
    const r = checkHyperparameters('AgentRFTEvaluation', { sampling_temperature: '1.0', top_p: '1.0', max_tokens: '8192' });
    assert.equal(r.level, 'fail');
    assert.match(
      r.message,
      /sampling_temperature is the SDK evaluator.s name, which the service may drop or refuse; write the flat name temperature/,
    );
    assert.match(r.message, /top_p is the SDK evaluator.s name, which the service may drop or refuse; write the flat name sampling_top_p/);
    assert.match(
      r.message,
      /max_tokens is the SDK evaluator.s name, which the service may drop or refuse; write the flat name sampling_max_tokens/,
    );
  });

  it('fails an out-of-range value and warns on an unknown name', () => {
    assert.equal(checkHyperparameters('AgentRFT', { group_size: '64' }).level, 'fail');
    const unknown = checkHyperparameters('AgentRFT', { gradient_steps: '3' });
    assert.equal(unknown.level, 'warn');
    assert.match(unknown.message, /gradient_steps/);
    assert.equal(checkHyperparameters('AgentRFT', { group_size: '16' }).level, 'pass');
  });

  it("knows the guide's training settings: max_steps_off_policy 0 and adam_beta2 0.95 pass without an unknown-name warning", () => {
    const r = checkHyperparameters('AgentRFT', {
      max_steps_off_policy: '0',
      adam_beta1: '0.9',
      adam_beta2: '0.95',
      adam_eps: '1e-8',
      adam_weight_decay: '0',
      adam_grad_clip_norm: '1',
      rollout_max_retries: '10',
    });
    assert.equal(r.level, 'pass', r.message);
  });

  it("refuses values outside the guide's ranges: rollout_max_concurrency 128, rollout_timeout 100, max_steps_off_policy 11", () => {
    for (const category of ['AgentRFT', 'AgentRFTEvaluation'] as const) {
      const r = checkHyperparameters(category, { rollout_max_concurrency: '128' });
      assert.equal(r.level, 'fail');
      assert.match(r.message, /rollout_max_concurrency must be in \[32, 96\]; got 128/);
      assert.equal(checkHyperparameters(category, { rollout_timeout: '100' }).level, 'fail');
      assert.equal(checkHyperparameters(category, { rollout_max_retries: '0' }).level, 'fail');
    }
    assert.equal(checkHyperparameters('AgentRFT', { max_steps_off_policy: '11' }).level, 'fail');
    assert.equal(checkHyperparameters('AgentRFT', { adam_grad_clip_norm: '101' }).level, 'fail');
  });

  it('refuses an evaluation stopping condition above 259,200 s (the SDK evaluator’s limit)', () => {
    assert.equal(checkHyperparameters('AgentRFTEvaluation', {}, 86400).level, 'pass');
    const r = checkHyperparameters('AgentRFTEvaluation', {}, 300000);
    assert.equal(r.level, 'fail');
    assert.match(r.message, /MaxRuntimeInSeconds must be in \(0, 259200\]/);
  });

  it("an evaluation that leaves pass_k_values to the service's default is not compared with eval_group_size", () => {
    assert.equal(checkHyperparameters('AgentRFTEvaluation', { eval_group_size: '2' }).level, 'pass');
  });

  it('fails pass@k values above the evaluation group size', () => {
    const r = checkHyperparameters('AgentRFTEvaluation', { eval_group_size: '2', pass_k_values: '[1,4]' });
    assert.equal(r.level, 'fail');
    assert.match(r.message, /pass_k_values 4 exceed eval_group_size 2/);
  });
});

describe('mlflowConfigOf', () => {
  const config = { MlflowResourceArn: MLFLOW, MlflowExperimentName: 'wordle', MlflowRunName: 'r1' };
  it('reads TrainingConfig.MlflowConfig (SDK and real jobs) first, else OutputDataConfig.MlflowConfig (evaluations, the doc example)', () => {
    assert.deepEqual(
      mlflowConfigOf({ TrainingConfig: { MlflowConfig: config }, OutputDataConfig: { MlflowConfig: { MlflowResourceArn: 'other' } } }),
      config,
    );
    assert.deepEqual(mlflowConfigOf({ OutputDataConfig: { S3OutputPath: 's3://b/o', MlflowConfig: config } }), config);
    assert.equal(mlflowConfigOf({ TrainingConfig: {}, OutputDataConfig: { S3OutputPath: 's3://b/o' } }), undefined);
    assert.equal(documentFacts('AgentRFT', { OutputDataConfig: { MlflowConfig: config } }).mlflowArn, MLFLOW);
  });

  it('the training builder writes where the SDK does: under TrainingConfig, not OutputDataConfig', () => {
    const doc = buildTrainingDocument({
      runtimeArn: RUNTIME,
      trainUri: 's3://b/t.jsonl',
      outputPath: 's3://b/o',
      baseModelArn: MODEL,
      mlflowArn: MLFLOW,
      experimentName: 'wordle',
      hyperparameters: {},
    });
    assert.deepEqual((doc.TrainingConfig as { MlflowConfig: unknown }).MlflowConfig, {
      MlflowResourceArn: MLFLOW,
      MlflowExperimentName: 'wordle',
    });
    assert.deepEqual(doc.OutputDataConfig, { S3OutputPath: 's3://b/o' });
  });
});
