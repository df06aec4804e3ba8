import { strict as assert } from 'node:assert';
import { DocumentSchemas } from '../../../../src/core/jobs/documentSchema';
import { baseModelArn, STATIC_MODELS, mergeModels, modelsFromHub, modelsFromSetting } from '../../../../src/core/jobs/models';
import {
  checkDatasets,
  checkEvaluations,
  checkJobName,
  checkModel,
  checkRuntime,
  checkSchema,
  verdict,
} from '../../../../src/core/jobs/preflight';
import { checkRoleTrust } from '../../../../src/core/jobs/roleTrust';
import { checkSmoke } from '../../../../src/core/smoke/record';

const RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234';
const ROLE = 'arn:aws:iam::111122223333:role/mtrl-job';

describe('pre-flight checks', () => {
  it('job name: pattern, length and uniqueness', () => {
    assert.equal(checkJobName('wordle-grpo-1', new Set()).level, 'pass');
    assert.equal(checkJobName('-bad', new Set()).level, 'fail');
    assert.equal(checkJobName('bad_name', new Set()).level, 'fail');
    assert.equal(checkJobName('a'.repeat(64), new Set()).level, 'fail');
    assert.match(checkJobName('taken', new Set(['taken'])).message, /already exists/);
  });

  it('schema: validates with ajv and names the offending fields', () => {
    const schemas = new DocumentSchemas();
    schemas.add('AgentRFTEvaluation', '1.0.0', {
      type: 'object',
      required: ['EvaluationConfig'],
      properties: {
        EvaluationConfig: {
          type: 'object',
          properties: { HyperParameters: { type: 'object', additionalProperties: false, properties: { temperature: { type: 'string' } } } },
        },
      },
    });
    assert.deepEqual(
      schemas.validate('AgentRFTEvaluation', '1.0.0', { EvaluationConfig: { HyperParameters: { temperature: '1.0' } } }),
      [],
    );
    const errors = schemas.validate('AgentRFTEvaluation', '1.0.0', {
      EvaluationConfig: { HyperParameters: { sampling_temperature: '1.0' } },
    });
    assert.deepEqual(errors, ['EvaluationConfig.HyperParameters: unexpected field sampling_temperature']);
    assert.match(schemas.validate('AgentRFTEvaluation', '1.0.0', {})[0], /missing EvaluationConfig/);
    assert.equal(checkSchema('1.0.0', errors).level, 'fail');
    assert.equal(checkSchema('1.0.0', []).level, 'pass');
    assert.equal(checkSchema('1.0.0', undefined, 'network down').level, 'warn');
    assert.throws(() => schemas.validate('AgentRFT', '9.9.9', {}), /No schema 9.9.9/);
  });

  it('role: passes job.sagemaker.amazonaws.com with AssumeRole and TagSession', () => {
    const r = checkRoleTrust(ROLE, [
      { Effect: 'Allow', Principal: { Service: 'job.sagemaker.amazonaws.com' }, Action: ['sts:AssumeRole', 'sts:TagSession'] },
    ]);
    assert.equal(r.level, 'pass');
  });

  it('role: fails explicitly for the general sagemaker.amazonaws.com principal', () => {
    const r = checkRoleTrust(ROLE, [{ Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' }]);
    assert.equal(r.level, 'fail');
    assert.match(r.message, /trusts sagemaker\.amazonaws\.com; the job needs job\.sagemaker\.amazonaws\.com/);
    assert.match(r.fix!, /sts:TagSession/);
  });

  it('role: fails when TagSession is missing, or the role cannot be read', () => {
    const r = checkRoleTrust(ROLE, [{ Principal: { Service: ['job.sagemaker.amazonaws.com'] }, Action: 'sts:AssumeRole' }]);
    assert.equal(r.level, 'fail');
    assert.match(r.message, /does not allow sts:TagSession/);
    assert.equal(checkRoleTrust(ROLE, undefined, 'NoSuchEntity').level, 'fail');
  });

  it('runtime: READY and in the job region', () => {
    assert.equal(checkRuntime({ arn: RUNTIME, status: 'READY' }, 'us-east-1').level, 'pass');
    assert.match(checkRuntime({ arn: RUNTIME, status: 'READY' }, 'us-west-2').message, /in us-east-1 but the job runs in us-west-2/);
    assert.match(checkRuntime({ arn: RUNTIME, status: 'CREATING' }, 'us-east-1').message, /CREATING, not READY/);
    assert.equal(checkRuntime(undefined, 'us-east-1').level, 'fail');
    assert.equal(checkRuntime({ arn: 'arn:aws:lambda:x', status: 'READY' }, 'us-east-1').level, 'fail');
  });

  it('model: offered in the region, from the static table, the hub or the setting', () => {
    assert.equal(checkModel(baseModelArn('us-east-1', 'openai-reasoning-gpt-oss-20b'), 'us-east-1', STATIC_MODELS).level, 'pass');
    assert.match(
      checkModel(baseModelArn('us-east-1', 'huggingface-vlm-qwen3-6-27b'), 'us-east-1', STATIC_MODELS).message,
      /not offered for MTRL in us-east-1/,
    );
    assert.match(
      checkModel(baseModelArn('us-west-2', 'openai-reasoning-gpt-oss-20b'), 'us-east-1', STATIC_MODELS).message,
      /names us-west-2/,
    );
    const models = mergeModels(
      STATIC_MODELS,
      modelsFromSetting([{ id: 'google-gemma-4-31b-it', regions: ['us-west-2'] }, { name: 'no id' }]),
    );
    assert.equal(checkModel(baseModelArn('us-west-2', 'google-gemma-4-31b-it'), 'us-west-2', models).level, 'pass');
    const hub = modelsFromHub('us-west-2', [
      { HubContentName: 'new-model', HubContentSearchKeywords: ['@recipe:finetuning_mtrl'] },
      { HubContentName: 'other', HubContentSearchKeywords: [] },
    ]);
    assert.deepEqual(
      hub.map((m) => m.id),
      ['new-model'],
    );
  });

  it('datasets: readable, valid, more rows than a batch, no overlap', () => {
    const train = { channel: 'train', uri: 's3://b/t', rows: 640, errors: [] };
    const validation = { channel: 'validation', uri: 's3://b/v', rows: 128, errors: [] };
    assert.equal(checkDatasets([train, validation], 128).level, 'warn', '640 < 10 × 128');
    assert.equal(checkDatasets([{ ...train, rows: 1280 }, validation], 128).level, 'pass');
    assert.match(checkDatasets([{ ...train, rows: 100 }], 128).message, /100 rows; the service needs more than global_batch_size 128/);
    assert.equal(checkDatasets([{ ...train, rows: 128 }], 128).level, 'fail', 'the service refuses rows == batch');
    assert.match(checkDatasets([train, validation], 128, 3).message, /3 rows appear in both/);
    assert.match(checkDatasets([{ ...train, rows: undefined, unreadable: 'NoSuchKey' }], 128).message, /cannot be read: NoSuchKey/);
    assert.match(checkDatasets([{ ...train, errors: ['row 3: flat row, the agent never sees the answer'] }], 128).message, /flat row/);
    assert.equal(checkDatasets([], 128).level, 'fail');
  });

  it('evaluations: warns while another evaluation runs, training unaffected', () => {
    assert.equal(checkEvaluations('AgentRFTEvaluation', ['eval-1'])?.level, 'warn');
    assert.equal(checkEvaluations('AgentRFTEvaluation', [])?.level, 'pass');
    assert.equal(checkEvaluations('AgentRFT', ['eval-1']), undefined);
  });

  it('smoke: reads the last result of the runtime', () => {
    assert.equal(checkSmoke(RUNTIME, { [RUNTIME]: { ok: true, at: '2026-11-29T10:00:00Z', summary: 'reward -1.5' } }).level, 'pass');
    assert.equal(checkSmoke(RUNTIME, { [RUNTIME]: { ok: false, at: 'x', summary: '30 s timeout' } }).level, 'warn');
    assert.equal(checkSmoke(RUNTIME, {}).level, 'warn');
  });

  it('errors block and warnings ask', () => {
    const p = checkSmoke(RUNTIME, { [RUNTIME]: { ok: true, at: 'x', summary: 'ok' } });
    const w = checkSmoke(RUNTIME, {});
    const f = checkJobName('-', new Set());
    assert.equal(verdict([p]), 'pass');
    assert.equal(verdict([p, w]), 'warn');
    assert.equal(verdict([p, w, f]), 'fail');
  });
});
