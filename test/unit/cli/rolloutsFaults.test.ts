import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { createTrainingJob, trainingDocument, withEmulator } from '../emulator/helpers';
import { startFaultProxy } from '../hostile/faultProxy';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['rollouts', ...argv], {
    out: (t) => void (out += t + '\n'),
    err: (t) => void (err += t + '\n'),
    stdin: () => [],
  });
  return { code, out, err };
}

const THROTTLED = { status: 429, body: { error_code: 'REQUEST_LIMIT_EXCEEDED', message: 'Rate exceeded' } };

describe('mtrl rollouts --job under faults', () => {
  it('keeps the rollouts read before MLflow throttled, marks them partial and names the service, endpoint and fix', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      await createTrainingJob(
        aws,
        'silent',
        trainingDocument({ max_steps: '12', global_batch_size: '32', group_size: '4' }, SEEDED.silentRuntime),
      );
      clock.advance(24 * 3_600_000);
      // The probe for any trace and the first page of 500 are listed and read whole; the listing's second page is throttled
      // on every attempt (a throttled batchGet alone is no longer partial: spans are read from each traces.json in S3 instead).
      const proxy = await startFaultProxy(emulator.url, (path, nth) =>
        path.endsWith('/traces/search') && nth > 2 ? THROTTLED : undefined,
      );
      try {
        const text = await run('--job', 'silent', '--endpoint', proxy.url, '--json');
        assert.equal(text.code, 2, text.err);
        const json = JSON.parse(text.out) as { rollouts: number; partial?: string };
        assert.equal(json.rollouts, 500, 'the first page, kept');
        assert.match(
          json.partial ?? '',
          /MLflow \(traces\/search at http:\/\/127\.0\.0\.1:\d+\/api\/3\.0\/mlflow\/traces\/search\) is throttling requests.*Wait a minute/,
        );
        assert.match(
          text.err,
          new RegExp(
            `^mtrl rollouts: partial: ${json.rollouts} rollouts read, then Reading the rollouts of job silent to the end failed: MLflow`,
            'm',
          ),
        );
        assert.notEqual(text.err.trim(), 'Rate exceeded');
      } finally {
        await proxy.close();
      }
    });
  });
});
