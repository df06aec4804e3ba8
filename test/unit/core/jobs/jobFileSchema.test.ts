import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { EVALUATION_HYPERPARAMETERS, rangeText, TRAINING_HYPERPARAMETERS } from '../../../../src/core/jobs/hyperparameters';
import { parseJobFile, serializeJobFile } from '../../../../src/core/jobs/jobfile';

const root = path.resolve(__dirname, '../../../..');
const schema = JSON.parse(readFileSync(path.join(root, 'media/mtrl-job.schema.json'), 'utf8'));
const demo = readFileSync(path.join(root, 'test/fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8');

describe('job file JSON schema (completion and hover)', () => {
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);

  it('is contributed for *.mtrl.json', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    assert.deepEqual(
      manifest.contributes.jsonValidation.find((v: { fileMatch: string }) => v.fileMatch === '*.mtrl.json'),
      { fileMatch: '*.mtrl.json', url: './media/mtrl-job.schema.json' },
    );
  });

  it('describes every hyperparameter of the launch tables, nothing more', () => {
    const [training, evaluation] = schema.allOf.map(
      (b: {
        then: {
          properties: {
            JobConfigDocument: {
              properties: Record<string, { properties: { HyperParameters: { properties: Record<string, { description: string }> } } }>;
            };
          };
        };
      }) => b.then.properties.JobConfigDocument.properties,
    );
    const names = (p: Record<string, { description: string }>) => Object.keys(p).filter((k) => !/Rejected/.test(p[k].description));
    assert.deepEqual(
      names(training.TrainingConfig.properties.HyperParameters.properties),
      TRAINING_HYPERPARAMETERS.map((s) => s.name),
    );
    assert.deepEqual(
      names(evaluation.EvaluationConfig.properties.HyperParameters.properties),
      EVALUATION_HYPERPARAMETERS.map((s) => s.name),
    );
    // The hover shows the one table's default and range: the file cannot drift from it.
    const hovers = (p: Record<string, { description: string; default?: string }>, table: typeof TRAINING_HYPERPARAMETERS) =>
      assert.deepEqual(
        table.map((s) => [s.name, p[s.name].description, p[s.name].default]),
        table.map((s) => [s.name, `${s.summary}. Default ${s.default}; ${rangeText(s)}.`, s.default]),
      );
    hovers(training.TrainingConfig.properties.HyperParameters.properties, TRAINING_HYPERPARAMETERS);
    hovers(evaluation.EvaluationConfig.properties.HyperParameters.properties, EVALUATION_HYPERPARAMETERS);
  });

  it('accepts the demo job file, which is in canonical form', () => {
    assert.ok(validate(JSON.parse(demo)), JSON.stringify(validate.errors));
    assert.equal(serializeJobFile(parseJobFile(demo).jobFile!), demo);
  });

  it('flags the SDK evaluator names in an evaluation file', () => {
    const file = {
      ...JSON.parse(demo),
      JobCategory: 'AgentRFTEvaluation',
      JobConfigDocument: {
        AgentConfig: {},
        InputDataConfig: [],
        OutputDataConfig: { S3OutputPath: 's3://b/o' },
        EvaluationConfig: { BaseModelArn: 'x', AcceptEula: true, HyperParameters: { top_p: '1.0' } },
      },
    };
    assert.equal(validate(file), false);
    assert.ok(
      validate.errors!.some((e) => e.instancePath.endsWith('/HyperParameters/top_p')),
      JSON.stringify(validate.errors),
    );
  });

  it("accepts the SDK's training document shape: AcceptEula false and MlflowConfig.MlflowRunName under TrainingConfig", () => {
    const file = JSON.parse(demo) as { JobConfigDocument: { TrainingConfig: Record<string, unknown> } };
    file.JobConfigDocument.TrainingConfig.AcceptEula = false;
    file.JobConfigDocument.TrainingConfig.MlflowConfig = {
      MlflowResourceArn: 'arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-1',
      MlflowExperimentName: 'wordle',
      MlflowRunName: 'run-1',
    };
    assert.ok(validate(file), JSON.stringify(validate.errors));
    file.JobConfigDocument.TrainingConfig.AcceptEula = 'true';
    assert.equal(validate(file), false);
  });
});
