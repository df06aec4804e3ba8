import { strict as assert } from 'node:assert';
import { createJob, listJobs } from '../../../src/aws/sagemaker';
import { sweepRuns, type Sweep } from '../../../src/core/evaluation/sweep';
import { DEFAULT_PRICING } from '../../../src/core/jobs/pricing';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { comparisonDeltas } from '../../../src/services/evaluations';
import { advanceSweep, sweepComparison } from '../../../src/services/sweeps';
import { collect, evaluationDocument, GPT_OSS, withEmulator } from '../emulator/helpers';

const HOUR = 3_600_000;

const sweep = (grid: Sweep['grid'], runtimes = [{ label: 'medium', runtimeArn: SEEDED.runtime }]): Sweep => ({
  name: 'wordle-sweep',
  region: 'us-east-1',
  roleArn: SEEDED.jobRole,
  baseModelArn: GPT_OSS,
  evaluationUri: SEEDED.validation,
  outputPath: 's3://mtrl-demo/eval',
  models: [{ label: 'base' }, { label: 'adapter', trainingJob: SEEDED.completedJob }],
  runtimes,
  grid,
});

describe('evaluation sweeps against the emulator', () => {
  it('runs a sweep of 4 evaluations to completion one at a time; a reload mid-sweep launches nothing twice', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock }, async (_emulator, aws) => {
      const s = sweep({ temperature: ['1.0', '0.6'] });
      const launched: string[] = [];
      for (let turn = 0; turn < 12; turn++) {
        const first = await advanceSweep(aws, s, 'running');
        // A second window (or the same one after a reload) reads the service again and must not launch anything more.
        const again = await advanceSweep(aws, s, 'running');
        assert.equal(again.launched, undefined);
        if (first.launched) launched.push(first.launched);
        if (first.decision.kind === 'done') break;
        assert.ok(first.state.progress.running <= 1);
        clock.advance(2 * HOUR);
      }
      assert.deepEqual(
        launched,
        sweepRuns(s).map((r) => r.jobName),
      );
      const jobs = await collect(listJobs(aws.sagemaker(), { JobCategory: 'AgentRFTEvaluation' }));
      assert.equal(jobs.filter((j) => j.JobName?.startsWith('wordle-sweep-')).length, 4);
      assert.ok(jobs.every((j) => j.JobStatus === 'Completed'));
    });
  });

  it('waits while another evaluation of the account runs', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock }, async (_emulator, aws) => {
      await createJob(aws.sagemaker(), {
        JobName: 'someone-else',
        JobCategory: 'AgentRFTEvaluation',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(evaluationDocument({})),
      });
      const step = await advanceSweep(aws, sweep({}), 'running');
      assert.equal(step.launched, undefined);
      assert.equal(step.decision.kind, 'wait');
      assert.match(step.decision.kind === 'wait' ? step.decision.reason : '', /someone-else is running/);
    });
  });

  it('pass@1 follows the model and the settings as in the write-up; deltas carry Newcombe intervals', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock }, async (_emulator, aws) => {
      const s = sweep({}, [
        { label: 'medium', runtimeArn: SEEDED.runtime },
        { label: 'low', runtimeArn: SEEDED.lowEffortRuntime },
      ]);
      for (let turn = 0; turn < 10; turn++) {
        if ((await advanceSweep(aws, s, 'running')).decision.kind === 'done') break;
        clock.advance(2 * HOUR);
      }
      const { comparison, grid } = await sweepComparison(aws, s, DEFAULT_PRICING);
      assert.deepEqual(grid.rows, ['medium', 'low']);
      assert.deepEqual(grid.columns, ['base', 'adapter']);
      assert.equal(grid.baseline, 'base');
      assert.deepEqual(
        grid.deltas.map((d) => [d.row, d.column, d.delta.significant]),
        [
          ['medium', 'adapter', true],
          ['low', 'adapter', true],
        ],
      );
      assert.equal(comparison.results.length, 4);
      const [mediumBase, mediumAdapter, lowBase, lowAdapter] = sweepRuns(s).map((r) =>
        comparison.results.find((x) => x.job === r.jobName)!,
      );
      assert.ok(mediumAdapter.passAt1 > mediumBase.passAt1 && lowAdapter.passAt1 > lowBase.passAt1, 'the adapter wins in every setting');
      assert.ok(lowBase.passAt1 < mediumBase.passAt1 - 0.2, 'low effort costs the base model most');
      assert.equal(mediumBase.rollouts, 128);
      assert.ok(mediumBase.interval[0] < mediumBase.passAt1 && mediumBase.passAt1 < mediumBase.interval[1]);
      assert.ok((mediumBase.cost ?? 0) > 0 && (mediumBase.tokens ?? 0) > 0);
      const deltas = comparisonDeltas({ results: [lowBase, lowAdapter], skipped: [], placement: new Map(), sources: new Map() });
      assert.equal(deltas.length, 1);
      assert.equal(deltas[0].significant, true);
    });
  });
});
