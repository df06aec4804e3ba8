import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { createJob, describeJob, describeJobSchemaVersion, listJobSchemaVersions } from '../../../src/aws/sagemaker';
import { SEEDED } from '../../../src/emulator/seed';
import { createTrainingJob, evaluationDocument, trainingDocument, withEmulator } from './helpers';

describe('emulator: config schemas', () => {
  it('serves a JSON Schema per category that accepts the documents of the reference', async () => {
    await withEmulator({}, async (_emulator, aws) => {
      assert.deepEqual(await listJobSchemaVersions(aws.sagemaker(), 'AgentRFT'), ['1.0.0']);
      const training = await describeJobSchemaVersion(aws.sagemaker(), 'AgentRFT');
      const evaluation = await describeJobSchemaVersion(aws.sagemaker(), 'AgentRFTEvaluation', '1.0.0');
      const ajv = new Ajv({ allErrors: true, strict: false });
      assert.equal(ajv.compile(training.schema)(trainingDocument({ max_steps: '100', sampling_max_tokens: '8192' })), true);
      assert.equal(
        ajv.compile(evaluation.schema)(evaluationDocument({ temperature: '1.0', sampling_top_p: '1.0', sampling_max_tokens: '8192' })),
        true,
      );
      // A described document (with ServiceOutput) is still valid: it can be resubmitted as is.
      const seeded = await describeJob(aws.sagemaker(), { jobName: SEEDED.completedJob, category: 'AgentRFT' });
      assert.equal(ajv.compile(training.schema)(seeded.config), true);
      await assert.rejects(describeJobSchemaVersion(aws.sagemaker(), 'AgentRFT', '9.9.9'), (e: Error) => e.name === 'ResourceNotFound');
    });
  });

  it("rejects the SDK evaluator's sampling_temperature / top_p / max_tokens, naming the accepted names", async () => {
    await withEmulator({}, async (_emulator, aws) => {
      const document = evaluationDocument({ sampling_temperature: '1.0', top_p: '1.0', max_tokens: '8192' });
      const error = (await createJob(aws.sagemaker(), {
        JobName: 'sdk-names',
        JobCategory: 'AgentRFTEvaluation',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(document),
      }).catch((e: unknown) => e)) as Error;
      assert.equal(error.name, 'ValidationException');
      for (const [wrong, right] of [
        ['sampling_temperature', 'temperature'],
        ['top_p', 'sampling_top_p'],
        ['max_tokens', 'sampling_max_tokens'],
      ]) {
        assert.match(error.message, new RegExp(`unsupported hyperparameter '${wrong}' \\(use ${right}\\)`));
      }
      assert.match(error.message, /accepted names: eval_group_size, temperature, sampling_top_p, sampling_max_tokens/);
    });
  });

  it('names every offending field of a broken training document', async () => {
    await withEmulator({}, async (_emulator, aws) => {
      const document = trainingDocument({ max_steps: '10', lerning_rate: '1e-5' });
      delete document.OutputDataConfig;
      (document.AgentConfig as { BedrockAgentCoreConfig: { AgentRuntimeArn: string } }).BedrockAgentCoreConfig.AgentRuntimeArn =
        'wordle_agent';
      const error = (await createJob(aws.sagemaker(), {
        JobName: 'broken',
        JobCategory: 'AgentRFT',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(document),
      }).catch((e: unknown) => e)) as Error;
      assert.equal(error.name, 'ValidationException');
      assert.match(error.message, /missing required field 'OutputDataConfig'/);
      assert.match(error.message, /unsupported hyperparameter 'lerning_rate'/);
      assert.match(error.message, /AgentConfig\.BedrockAgentCoreConfig\.AgentRuntimeArn: 'wordle_agent' does not match/);
      const badName = (await createJob(aws.sagemaker(), {
        JobName: 'no_underscores',
        JobCategory: 'AgentRFT',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(trainingDocument({})),
      }).catch((e: unknown) => e)) as Error;
      assert.match(badName.message, /jobName/);
    });
  });

  it("accepts the SDK's own training document: AcceptEula false and TrainingConfig.MlflowConfig.MlflowRunName; reads the doc example's OutputDataConfig.MlflowConfig", async () => {
    await withEmulator({ history: false }, async (_emulator, aws) => {
      const sdk = trainingDocument({ max_steps: '10' });
      const training = sdk.TrainingConfig as { AcceptEula: boolean; MlflowConfig: Record<string, string> };
      training.AcceptEula = false;
      training.MlflowConfig.MlflowRunName = 'sdk-run';
      await createTrainingJob(aws, 'sdk-shape', sdk);
      const docExample = trainingDocument({ max_steps: '10' });
      const mlflow = (docExample.TrainingConfig as { MlflowConfig: Record<string, string> }).MlflowConfig;
      delete (docExample.TrainingConfig as { MlflowConfig?: unknown }).MlflowConfig;
      docExample.OutputDataConfig = { S3OutputPath: 's3://mtrl-demo/output', MlflowConfig: { ...mlflow, MlflowRunName: 'doc-run' } };
      await createTrainingJob(aws, 'doc-shape', docExample);
      const evaluation = evaluationDocument({});
      (evaluation.EvaluationConfig as { AcceptEula: boolean }).AcceptEula = false;
      await createJob(aws.sagemaker(), {
        JobName: 'eval-no-eula',
        JobCategory: 'AgentRFTEvaluation',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(evaluation),
      });
      const run = async (name: string) =>
        (await describeJob(aws.sagemaker(), { jobName: name, category: 'AgentRFT' })).config?.ServiceOutput?.MlflowDetails?.RunName;
      assert.equal(await run('sdk-shape'), 'sdk-run');
      assert.equal(await run('doc-shape'), 'doc-run');
      const notBoolean = { ...sdk, TrainingConfig: { ...training, AcceptEula: 'yes' } };
      const error = (await createJob(aws.sagemaker(), {
        JobName: 'eula-text',
        JobCategory: 'AgentRFT',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(notBoolean),
      }).catch((e: unknown) => e)) as Error;
      assert.match(error.message, /TrainingConfig\.AcceptEula: must be boolean/);
    });
  });
});
