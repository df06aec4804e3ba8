import assert from 'node:assert/strict';
import { mlflowConfigOf } from '../../../../src/core/jobs/document';
import { locateRun, RunNotFound, type RunFinder } from '../../../../src/aws/mlflow/locate';

function finder(runs: Record<string, { id: string; experiment: string }>, calls: string[]): RunFinder {
  return {
    async getRun(runId) {
      calls.push(`get ${runId}`);
      return { info: { run_id: runId, experiment_id: '7' } };
    },
    async experimentByName(name) {
      calls.push(`experiment ${name}`);
      return name === 'wordle' ? { experiment_id: '7' } : undefined;
    },
    async searchRuns(ids, filter) {
      calls.push(`search ${filter}`);
      const name = (/'(.*)'/.exec(filter)?.[1] ?? '').replace(/\\(.)/g, '$1');
      const run = filter.startsWith('attributes') ? runs[name] : undefined;
      return run ? [{ info: { run_id: run.id, experiment_id: ids[0] } }] : [];
    },
  };
}

describe('locating a job run', () => {
  it('uses ServiceOutput.MlflowDetails.RunId directly', async () => {
    const calls: string[] = [];
    const run = await locateRun(finder({}, calls), 'job', { MlflowResourceArn: 'arn' }, { RunId: 'abc' });
    assert.deepEqual(run, { runId: 'abc', experimentId: '7', run: { info: { run_id: 'abc', experiment_id: '7' } }, via: 'run id' });
    assert.deepEqual(calls, ['get abc']);
  });
  it('falls back to the experiment by name, then the SDK tag filter, then the sample attribute filter', async () => {
    const calls: string[] = [];
    const run = await locateRun(
      finder({ "it's-job": { id: 'r9', experiment: '7' } }, calls),
      "it's-job",
      { MlflowResourceArn: 'arn', MlflowExperimentName: 'wordle' },
      undefined,
    );
    assert.deepEqual(run, { runId: 'r9', experimentId: '7', run: { info: { run_id: 'r9', experiment_id: '7' } }, via: 'run name' });
    assert.deepEqual(calls, [
      'experiment wordle',
      "search tags.mlflow.runName = 'it\\'s-job'",
      "search attributes.run_name = 'it\\'s-job'",
    ]);
  });
  it('names the fix when there is no experiment or no run yet', async () => {
    await assert.rejects(
      locateRun(finder({}, []), 'job', { MlflowResourceArn: 'arn', MlflowExperimentName: 'other' }, undefined),
      (e: unknown) => e instanceof RunNotFound && /no experiment 'other' yet/.test(e.message),
    );
    await assert.rejects(
      locateRun(finder({}, []), 'job', { MlflowResourceArn: 'arn', MlflowExperimentName: 'wordle' }, undefined),
      /no run named 'job' yet/,
    );
  });
});

describe('mlflowConfigOf', () => {
  const arn = 'arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-1';
  it('reads TrainingConfig.MlflowConfig (the SDK) and OutputDataConfig.MlflowConfig (evaluations, the AWS doc)', () => {
    assert.deepEqual(mlflowConfigOf({ TrainingConfig: { MlflowConfig: { MlflowResourceArn: arn, MlflowExperimentName: 'e' } } }), {
      MlflowResourceArn: arn,
      MlflowExperimentName: 'e',
      MlflowRunName: undefined,
    });
    assert.deepEqual(mlflowConfigOf({ OutputDataConfig: { MlflowConfig: { MlflowResourceArn: arn, MlflowRunName: 'r' } } }), {
      MlflowResourceArn: arn,
      MlflowExperimentName: undefined,
      MlflowRunName: 'r',
    });
    assert.equal(mlflowConfigOf({ TrainingConfig: {} }), undefined);
  });
});
