import { strict as assert } from 'node:assert';
import { main } from '../../../../src/cli';
import { SCAN_DEFAULTS } from '../../../../src/core/scan';
import { ManualClock } from '../../../../src/emulator/clock';
import { scanJobRollouts } from '../../../../src/services/health/scan';
import { ceiling } from '../../../host/lib/ceiling';
import { createTrainingJob, trainingDocument, withEmulator } from '../../emulator/helpers';

describe('health watch: the scan of a job’s rollouts', function () {
  this.timeout(ceiling(60_000));

  it('reads every rollout of the job through the endpoint and finds what mtrl scan --job finds', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      const document = trainingDocument({ max_steps: '2', global_batch_size: '32', group_size: '2' });
      await createTrainingJob(aws, 'watched', document);
      clock.advance(24 * 3_600_000);
      const job = { jobName: 'watched', category: 'AgentRFT' as const, region: 'us-east-1' };
      const result = await scanJobRollouts(aws, job, SCAN_DEFAULTS, AbortSignal.timeout(ceiling(30_000)));
      assert.equal(result.scanned, 2 * 32 * 2);
      let out = '';
      await main(['scan', '--job', 'watched', '--endpoint', emulator.url, '--json'], {
        out: (t) => void (out += t),
        err: () => undefined,
        stdin: () => [],
      });
      const cli = JSON.parse(out) as { scanned: number; findings: { kind: string; rollouts: number }[] };
      assert.equal(cli.scanned, result.scanned);
      assert.deepEqual(
        result.findings.map((f) => [f.kind, f.rollouts]),
        cli.findings.map((f) => [f.kind, f.rollouts]),
      );
    });
  });
});
