import assert from 'node:assert/strict';
import { ManualClock } from '../../../src/emulator/clock';
import { hasStepValues } from '../../../src/emulator/metricsLedger';
import { loadJobMetrics } from '../../../src/services/metrics/load';
import { createTrainingJob, trainingDocument, withEmulator } from './helpers';
import { ceiling } from '../../host/lib/ceiling';

const hp = { global_batch_size: '32', group_size: '2', max_steps: '6', val_every: '4' };
const ref = { jobName: 'ledger', category: 'AgentRFT' as const, region: 'us-east-1' };

/** Polls until `ready` holds; the ledger works in idle turns of the event loop. */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + ceiling(10_000);
  while (!ready()) {
    if (Date.now() > deadline) assert.fail(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('emulator: metrics ledger', () => {
  it('computes finished steps before any request, keeps up as a running job finishes more, and serves the same values', async () => {
    let served: Awaited<ReturnType<typeof loadJobMetrics>> | undefined;
    const clock = new ManualClock();
    await withEmulator({ clock, history: false, precomputeMetrics: true }, async (emulator, aws) => {
      await createTrainingJob(aws, 'ledger', trainingDocument(hp));
      const job = emulator.world.jobs.get('us-east-1/AgentRFT/ledger')!;
      const plan = job.plan;
      clock.advance(plan.startingMs + plan.downloadingMs + 2.5 * plan.stepMs);
      await until(() => hasStepValues(job, 'training', 2) && hasStepValues(job, 'validation', 0), 'steps 1–2 and validation 0 computed');
      assert.equal(hasStepValues(job, 'training', 3), false, 'a step that has not finished is not computed');
      clock.advance(60 * 60_000);
      await until(() => hasStepValues(job, 'training', 6) && hasStepValues(job, 'validation', 6), 'every step once the job finished');
      served = await loadJobMetrics(aws, ref);
    });
    // A fresh emulator without the ledger plays the same rollouts on request: the values must not depend on who computed them.
    const later = new ManualClock();
    await withEmulator({ clock: later, history: false }, async (_, aws) => {
      await createTrainingJob(aws, 'ledger', trainingDocument(hp));
      later.advance(24 * 3_600_000);
      const fresh = await loadJobMetrics(aws, ref);
      const values = (m: typeof fresh) =>
        Object.fromEntries(Object.entries(m.series).map(([k, points]) => [k, points.map((p) => p.value)]));
      assert.deepEqual(values(served!), values(fresh));
      assert.ok(fresh.series['rollout/reward/mean'].length === 6);
    });
  });
});
