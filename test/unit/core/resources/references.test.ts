import { strict as assert } from 'node:assert';
import type { JobDetails } from '../../../../src/core/jobs/job';
import { MTRL_REGIONS, regionsToCheck } from '../../../../src/core/jobs/regions';
import {
  distinctTargets,
  folderOf,
  inUseReason,
  jobPrefixes,
  jobUses,
  regionOfResource,
  resourceRef,
  runningUsers,
} from '../../../../src/core/resources/references';

function job(
  name: string,
  status: string,
  output = 's3://b/output',
  inputs = ['s3://b/wordle/train.jsonl'],
  region = 'us-east-1',
): JobDetails {
  return {
    name,
    arn: `arn:aws:sagemaker:${region}:111122223333:job/AgentRFT/${name}`,
    category: 'AgentRFT',
    region,
    status,
    created: new Date(0),
    transitions: [],
    roleArn: 'arn:aws:iam::111122223333:role/R',
    document: {
      AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/a-AbCdEf1234' } },
      InputDataConfig: inputs.map((S3Uri) => ({ ChannelName: 'train', DataSource: { S3DataSource: { S3Uri } } })),
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
    assert.equal(folderOf('s3://b/top.jsonl', true), undefined, 'a file at the bucket root makes no folder: a bucket is never offered');
    assert.equal(folderOf('s3://b', false), undefined);
    assert.equal(folderOf('s3://b/', false), undefined);
  });

  it('offers only folders a job read or wrote: never a bucket root; an output path at the root offers each job its own folder', () => {
    const jobs = [
      job('root-reader', 'Completed', 's3://b/output', ['s3://bucket/root-val.jsonl', 's3://b/wordle/train.jsonl']),
      job('root-writer', 'Completed', 's3://out-bucket', ['s3://b/wordle/sub/val.jsonl']),
    ];
    assert.deepEqual(jobPrefixes(jobs), ['s3://b/output/', 's3://b/wordle/', 's3://out-bucket/root-writer/']);
  });

  it("an S3 prefix is used by jobs reading under it or writing above it, except other jobs' output folders", () => {
    const running = job('sweep', 'InProgress');
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/wordle/' }), true);
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/' }), true);
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/output/' }), true);
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/output/sweep/' }), true);
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/output/older-run/' }), false);
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/output-old/' }), false, 'a prefix ends at a folder boundary');
    assert.equal(jobUses(running, { kind: 's3Prefix', id: 's3://b/wordle/other-team/' }), false, "a dataset file's sibling folder");
  });

  it('an S3Prefix input reads every key starting with it, so a folder inside it or next to it by name is in use', () => {
    const reader = job('reader', 'InProgress', 's3://b/output', ['s3://b/data']);
    assert.equal(jobUses(reader, { kind: 's3Prefix', id: 's3://b/data/part-1/' }), true, 'a folder inside the input prefix');
    assert.equal(jobUses(reader, { kind: 's3Prefix', id: 's3://b/data-old/' }), true, '`s3://b/data` also reads `data-old/`');
    assert.equal(jobUses(reader, { kind: 's3Prefix', id: 's3://b/dat/' }), false);
  });

  it('only running jobs hold a resource, and the reason names them', () => {
    const jobs = [job('done', 'Completed'), job('sweep', 'InProgress'), job('stopping', 'Stopping')];
    const users = runningUsers({ kind: 'role', id: 'arn:aws:iam::111122223333:role/R' }, jobs);
    assert.deepEqual(
      users.map((j) => j.name),
      ['sweep', 'stopping'],
    );
    assert.equal(inUseReason(users), 'used by running jobs sweep, stopping in us-east-1; stop them or wait until they finish');
    const west = job('west', 'InProgress', 's3://b/output', [], 'us-west-2');
    assert.equal(
      inUseReason([users[0], west]),
      'used by running jobs sweep (us-east-1), west (us-west-2); stop them or wait until they finish',
    );
    assert.deepEqual(runningUsers({ kind: 'mlflowApp', id: 'arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/other' }, jobs), []);
  });
});

describe('cleanup targets and regions', () => {
  it('a target named twice counts once, in the order first named', () => {
    const a = { kind: 's3Prefix' as const, id: 's3://b/output/x/' };
    const r = { kind: 'role' as const, id: 'arn:aws:iam::111122223333:role/R' };
    assert.deepEqual(distinctTargets([a, r, { ...a }, r]), [a, r]);
  });

  it('roles and S3 prefixes are account-wide; runtimes and MLflow apps live in the region of their ARN', () => {
    assert.equal(regionOfResource({ kind: 'role', id: 'arn:aws:iam::111122223333:role/R' }), undefined);
    assert.equal(regionOfResource({ kind: 's3Prefix', id: 's3://b/x/' }), undefined);
    assert.equal(
      regionOfResource({ kind: 'runtime', id: 'arn:aws:bedrock-agentcore:us-west-2:111122223333:runtime/a-AbCdEf1234' }),
      'us-west-2',
    );
  });

  it("checks every MTRL region plus the user's, each once", () => {
    assert.deepEqual(MTRL_REGIONS, ['us-east-1', 'us-west-2']);
    assert.deepEqual(regionsToCheck(['us-west-2', ' eu-west-1 ', '']), ['us-east-1', 'us-west-2', 'eu-west-1']);
  });
});
