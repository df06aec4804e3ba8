import { strict as assert } from 'node:assert';
import type { JobDetails } from '../../../../src/core/jobs/job';
import { folderOf, inUseReason, jobUses, resourceRef, runningUsers } from '../../../../src/core/resources/references';

function job(name: string, status: string, output = 's3://b/output'): JobDetails {
  return {
    name,
    arn: `arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/${name}`,
    category: 'AgentRFT',
    region: 'us-east-1',
    status,
    created: new Date(0),
    transitions: [],
    roleArn: 'arn:aws:iam::111122223333:role/R',
    document: {
      AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/a-AbCdEf1234' } },
      InputDataConfig: [{ ChannelName: 'train', DataSource: { S3DataSource: { S3Uri: 's3://b/wordle/train.jsonl' } } }],
      OutputDataConfig: {
        S3OutputPath: output,
        MlflowConfig: { MlflowResourceArn: 'arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-1' },
      },
    },
  };
}

describe('resource references', () => {
  it('tells the kind from an ARN or S3 URI, and refuses anything else', () => {
    assert.deepEqual(resourceRef('s3://b/output'), { kind: 's3Prefix', id: 's3://b/output/' });
    assert.equal(resourceRef('arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/a-AbCdEf1234')?.kind, 'runtime');
    assert.equal(resourceRef('arn:aws:iam::111122223333:role/R')?.kind, 'role');
    assert.equal(resourceRef('arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-1')?.kind, 'mlflowApp');
    assert.equal(resourceRef('wordle_agent'), undefined);
  });

  it('a dataset file lives in its folder; an output path is a folder itself', () => {
    assert.equal(folderOf('s3://b/wordle/train.jsonl', true), 's3://b/wordle/');
    assert.equal(folderOf('s3://b/output', false), 's3://b/output/');
    assert.equal(folderOf('s3://b/top.jsonl', true), 's3://b/', 'a file at the bucket root lives in the whole bucket');
  });

  it("an S3 prefix is used by jobs reading under it or writing above it, except other jobs' output folders", () => {
    const running = job('sweep', 'InProgress');
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/wordle/' }), true);
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/' }), true);
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/output/' }), true);
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/output/sweep/' }), true);
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/output/older-run/' }), false);
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/output-old/' }), false, 'a prefix ends at a folder boundary');
  });

  it('only running jobs hold a resource, and the reason names them', () => {
    const jobs = [job('done', 'Completed'), job('sweep', 'InProgress'), job('stopping', 'Stopping')];
    const users = runningUsers({ kind: 'role', id: 'arn:aws:iam::111122223333:role/R' }, jobs);
    assert.deepEqual(
      users.map((j) => j.name),
      ['sweep', 'stopping'],
    );
    assert.equal(inUseReason(users), 'used by running jobs sweep, stopping; stop them or wait until they finish');
    assert.deepEqual(runningUsers({ kind: 'mlflowApp', id: 'arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/other' }, jobs), []);
  });
});
