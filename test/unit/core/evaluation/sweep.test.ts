import { strict as assert } from 'node:assert';
import { nextStep, progressText, sweepProgress, type RunJob } from '../../../../src/core/evaluation/queue';
import { gridPoints, parseSweep, runDocument, sweepRuns } from '../../../../src/core/evaluation/sweep';
import { SWEEP } from './sweepFixture';

describe('evaluation sweeps', () => {
  it('crosses models × runtimes × grid points, settings in a fixed key order', () => {
    assert.deepEqual(gridPoints({ sampling_top_p: ['1.0', '0.9'], temperature: ['1.0'] }), [
      { temperature: '1.0', sampling_top_p: '1.0' },
      { temperature: '1.0', sampling_top_p: '0.9' },
    ]);
    const runs = sweepRuns(SWEEP);
    assert.equal(runs.length, 8);
    assert.deepEqual(
      runs.slice(0, 2).map((r) => [r.model.label, r.settingsLabel]),
      [
        ['base', 'medium temperature=1.0'],
        ['adapter', 'medium temperature=1.0'],
      ],
    );
  });

  it('derives job names from what a run is, not where it stands: unique, valid, unchanged when the grid grows', () => {
    const runs = sweepRuns(SWEEP);
    const names = runs.map((r) => r.jobName);
    assert.equal(new Set(names).size, names.length);
    for (const name of names) assert.match(name, /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/);
    const grown = sweepRuns({ ...SWEEP, grid: { temperature: ['1.2', '1.0', '0.6'] } }).map((r) => r.jobName);
    for (const name of names) assert.ok(grown.includes(name), `${name} kept`);
  });

  it('builds the flat-name evaluation document; only the adapter run has a model package', () => {
    const [base, adapter] = sweepRuns(SWEEP);
    const doc = runDocument(SWEEP, base, undefined) as {
      EvaluationConfig: { HyperParameters: Record<string, string> };
      ModelPackageConfig?: unknown;
    };
    assert.equal(doc.EvaluationConfig.HyperParameters.temperature, '1.0');
    assert.equal(doc.ModelPackageConfig, undefined);
    const withAdapter = runDocument(SWEEP, adapter, 'arn:aws:sagemaker:us-east-1:111122223333:model-package/wordle/1') as {
      ModelPackageConfig?: unknown;
    };
    assert.deepEqual(withAdapter.ModelPackageConfig, {
      InputModelPackageArn: 'arn:aws:sagemaker:us-east-1:111122223333:model-package/wordle/1',
    });
  });

  it('parses a sweep file and names every problem', () => {
    assert.deepEqual(parseSweep(JSON.stringify(SWEEP)).problems, []);
    const bad = parseSweep(
      JSON.stringify({ ...SWEEP, name: 'has space', models: [{ label: 'a' }, { label: 'a' }], grid: { top_k: ['5'] }, extra: 1 }),
    );
    const messages = bad.problems.map((p) => p.message).join('\n');
    assert.match(messages, /name must be/);
    assert.match(messages, /Two models are labelled "a"/);
    assert.match(messages, /grid.top_k is not a decoding setting/);
    assert.match(messages, /Unknown key extra/);
    assert.match(parseSweep('{').problems[0].message, /Not valid JSON/);
  });

  it('launches one run at a time, never twice, and waits for another evaluation of the account', () => {
    const runs = sweepRuns(SWEEP);
    const jobs = new Map<string, RunJob>();
    const launched: string[] = [];
    for (let i = 0; i < 20; i++) {
      const step = nextStep(runs, jobs, 'running');
      if (step.kind === 'done') break;
      if (step.kind === 'launch') {
        launched.push(step.run.jobName);
        jobs.set(step.run.jobName, { status: 'InProgress' });
        assert.equal(nextStep(runs, jobs, 'running').kind, 'wait');
        jobs.set(step.run.jobName, { status: i === 3 ? 'Failed' : 'Completed' });
      }
    }
    assert.deepEqual(
      launched,
      runs.map((r) => r.jobName),
    );
    assert.deepEqual(sweepProgress(runs, jobs), { done: 7, running: 0, waiting: 0, failed: 1, total: 8 });
    assert.equal(progressText(sweepProgress(runs, jobs)), '7/8 done · 0 running · 0 waiting · 1 failed');
    assert.equal(progressText(sweepProgress(runs, new Map())), '0/8 done · 0 running · 8 waiting');
    assert.equal(nextStep(runs, jobs, 'running').kind, 'done');
  });

  it('pauses, cancels, and respects the one-evaluation-per-account limit', () => {
    const runs = sweepRuns(SWEEP);
    const none = new Map<string, RunJob>();
    assert.equal(nextStep(runs, none, 'paused').kind, 'paused');
    assert.equal(nextStep(runs, none, 'cancelled').kind, 'cancelled');
    const step = nextStep(runs, none, 'running', 'someone-elses-eval');
    assert.equal(step.kind, 'wait');
    assert.match(step.kind === 'wait' ? step.reason : '', /one evaluation at a time/);
  });
});
