import { strict as assert } from 'node:assert';
import { buildTrainingDocument } from '../../../../src/core/jobs/document';
import {
  createJobRequest,
  jobFileFromDescription,
  keyOffset,
  nextJobName,
  parseJobFile,
  serializeJobFile,
  type JobFile,
} from '../../../../src/core/jobs/jobfile';
import { baseModelArn } from '../../../../src/core/jobs/models';

const jobFile: JobFile = {
  JobName: 'wordle-grpo-1',
  JobCategory: 'AgentRFT',
  Region: 'us-east-1',
  RoleArn: 'arn:aws:iam::111122223333:role/mtrl-job',
  JobConfigSchemaVersion: '1.0.0',
  JobConfigDocument: buildTrainingDocument({
    runtimeArn: 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234',
    trainUri: 's3://b/train.jsonl',
    outputPath: 's3://b/out',
    baseModelArn: baseModelArn('us-east-1', 'openai-reasoning-gpt-oss-20b'),
    hyperparameters: { sampling_max_tokens: '8192' },
  }),
  Tags: [{ Key: 'project', Value: 'wordle' }],
};

describe('job files', () => {
  it('round-trips exactly: text → parse → serialize', () => {
    const text = serializeJobFile(jobFile);
    const parsed = parseJobFile(text);
    assert.deepEqual(parsed.problems, []);
    assert.equal(serializeJobFile(parsed.jobFile!), text);
  });

  it('round-trips exactly through CreateJob and DescribeJob (ServiceOutput dropped)', () => {
    const request = createJobRequest(jobFile);
    const described = {
      ...request,
      JobConfigDocument: JSON.stringify({ ...JSON.parse(request.JobConfigDocument), ServiceOutput: { RolloutInfo: { Total: 1 } } }),
    };
    assert.equal(serializeJobFile(jobFileFromDescription(described, 'us-east-1')), serializeJobFile(jobFile));
  });

  it('writes keys in a fixed order whatever order they were given in', () => {
    const shuffled = {
      Tags: jobFile.Tags,
      JobConfigDocument: jobFile.JobConfigDocument,
      Region: 'us-east-1',
      RoleArn: jobFile.RoleArn,
      JobConfigSchemaVersion: '1.0.0',
      JobCategory: 'AgentRFT',
      JobName: jobFile.JobName,
    } as JobFile;
    assert.equal(serializeJobFile(shuffled), serializeJobFile(jobFile));
  });

  it('names what is wrong with a bad file, with where', () => {
    const broken = parseJobFile('{ "JobName": "x", }');
    assert.match(broken.problems[0].message, /Not valid JSON/);
    assert.equal(typeof broken.problems[0].offset, 'number');
    const bad = parseJobFile(JSON.stringify({ ...jobFile, JobCategory: 'Training', JobConfigDocument: '{}', Extra: 1 }));
    assert.deepEqual(
      bad.problems.map((p) => p.key),
      ['JobCategory', 'JobConfigDocument', 'Extra'],
    );
  });

  it('keeps an opt-in Budget, out of the CreateJob request, and names a bad one', () => {
    const budgeted = parseJobFile(serializeJobFile({ ...jobFile, Budget: { Dollars: 50, AutoStop: true } }));
    assert.deepEqual(budgeted.jobFile?.Budget, { Dollars: 50, AutoStop: true });
    assert.equal('Budget' in createJobRequest(budgeted.jobFile!), false);
    const bad = parseJobFile(JSON.stringify({ ...jobFile, Budget: { Dollars: 'fifty' } }));
    assert.deepEqual(
      bad.problems.map((p) => p.key),
      ['Budget'],
    );
  });

  it('finds the offset of a key for diagnostics', () => {
    const text = serializeJobFile(jobFile);
    const at = keyOffset(text, 'AgentRuntimeArn')!;
    assert.equal(text.slice(at.offset, at.offset + at.length), '"AgentRuntimeArn"');
    assert.equal(keyOffset(text, 'Nope'), undefined);
  });

  it('proposes a fresh name for a similar job', () => {
    assert.equal(nextJobName('wordle-grpo-1', new Set()), 'wordle-grpo-2');
    assert.equal(nextJobName('wordle', new Set(['wordle-2'])), 'wordle-3');
  });
});
