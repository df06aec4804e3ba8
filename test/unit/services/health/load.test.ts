import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../../src/emulator/clock';
import { rolloutPhaseStart } from '../../../../src/emulator/jobs';
import { loadJobHealth } from '../../../../src/services/health/load';
import { ceiling } from '../../../host/lib/ceiling';
import { computeMetricsAhead, createTrainingJob, trainingDocument, withEmulator } from '../../emulator/helpers';

describe('health of a running job read through a slow MLflow', function () {
  this.timeout(ceiling(60_000));

  it('counts "no new step" from when the job was asked about, not from when the last answer came', async () => {
    // The emulator's time stands still while its answers take 0.8 s each: the job's last step is as fresh as a step can be.
    const clock = new ManualClock();
    await withEmulator({ clock, history: false, speed: 60, latencyMs: 800 }, async (emulator, aws) => {
      const document = trainingDocument({ max_steps: '100', global_batch_size: '32', group_size: '2' });
      await createTrainingJob(aws, 'training', document);
      const job = emulator.world.jobs.get(emulator.world.jobKey('AgentRFT', 'training', 'us-east-1'))!;
      // Ten and a half steps trained at this moment of the wall clock, which the health check reads; the steps' values are
      // computed first (seconds of CPU), then the job and the emulator's time moved on together to the wall clock's now.
      job.created = clock.now() - (rolloutPhaseStart(job) - job.created) - 10.5 * job.plan.stepMs;
      computeMetricsAhead(emulator.world);
      const lag = Date.now() - clock.now();
      clock.advance(lag);
      job.created += lag;
      const threshold = 3 * job.plan.stepMs;
      const started = Date.now();
      const { report } = await loadJobHealth(aws, { jobName: 'training', category: 'AgentRFT', region: 'us-east-1' });
      const took = Date.now() - started;
      assert.ok(took > threshold, `the reads took ${took} ms, longer than the stall threshold, so the test can fail`);
      assert.deepEqual(
        report.findings.map((f) => f.kind),
        [],
      );
      assert.ok(!report.notChecked.some((n) => n.kind === 'stalled'), 'the stall check ran on the running job');
    });
  });
});
