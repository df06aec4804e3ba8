import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { ceiling } from '../../host/lib/ceiling';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

describe('mtrl compare', function () {
  this.timeout(ceiling(30_000));
  let emulator: Emulator;

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID ??= 'test';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
    emulator = await startEmulator({ clock: new ManualClock(Date.now()) });
  });
  after(() => emulator.close());

  it('prints the seeded base and trained evaluations with intervals and a significant delta as JSON', async () => {
    const { code, out } = await run(
      'compare',
      SEEDED.trainedEvaluation,
      '--baseline',
      SEEDED.baseEvaluation,
      '--endpoint',
      emulator.url,
      '--json',
    );
    assert.equal(code, 0, out);
    const json = JSON.parse(out) as {
      jobs: { job: string; pass_at_1: number; interval: [number, number]; rollouts: number }[];
      deltas: { job: string; baseline: string; delta: number; interval: [number, number]; significant: boolean }[];
    };
    assert.deepEqual(
      json.jobs.map((j) => j.job),
      [SEEDED.baseEvaluation, SEEDED.trainedEvaluation],
    );
    for (const job of json.jobs) assert.ok(job.interval[0] <= job.pass_at_1 && job.pass_at_1 <= job.interval[1] && job.rollouts > 0);
    assert.equal(json.deltas.length, 1);
    assert.equal(json.deltas[0].baseline, SEEDED.baseEvaluation);
    assert.ok(json.deltas[0].delta > 0 && json.deltas[0].significant);
  });

  it("compares the SDK pipeline's pair from their MLflow runs (no EvaluationMetrics on them)", async () => {
    const { code, out, err } = await run(
      'compare',
      SEEDED.pipelineBaseEvaluation,
      SEEDED.pipelineFineTunedEvaluation,
      '--endpoint',
      emulator.url,
    );
    assert.equal(code, 0, out + err);
    const lines = out.trim().split('\n');
    assert.match(
      lines[0],
      new RegExp(`^${SEEDED.pipelineBaseEvaluation}: pass@1 \\d+\\.\\d % .* \\(\\d+/256\\) from MLflow run [0-9a-f]{32}$`),
    );
    assert.match(lines[1], new RegExp(`^${SEEDED.pipelineFineTunedEvaluation}: pass@1 .* from MLflow run [0-9a-f]{32}$`));
  });

  it('writes Markdown for a write-up and CSV', async () => {
    const md = await run('compare', SEEDED.baseEvaluation, SEEDED.trainedEvaluation, '--endpoint', emulator.url, '--markdown');
    assert.match(md.out, /^\| job \| pass@1 \| 95 % interval \|/);
    assert.match(md.out, /\| yes \|/);
    const csv = await run('compare', SEEDED.baseEvaluation, SEEDED.trainedEvaluation, '--endpoint', emulator.url, '--csv');
    assert.equal(csv.out.trim().split('\n').length, 3);
  });

  it('exits 1 naming a job that is not a completed evaluation, 2 for usage', async () => {
    const failed = await run('compare', SEEDED.baseEvaluation, 'no-such-eval', '--endpoint', emulator.url, '--json');
    assert.equal(failed.code, 1, failed.err);
    assert.match(failed.err, /no-such-eval: not compared, there is no evaluation job of that name/);
    assert.equal((JSON.parse(failed.out) as { jobs: unknown[] }).jobs.length, 1);
    const refused = await run('compare', SEEDED.baseEvaluation, '--endpoint', 'http://127.0.0.1:9');
    assert.equal(refused.code, 2);
    assert.equal((await run('compare')).code, 2);
    assert.equal((await run('compare', 'a', '--json', '--csv')).code, 2);
  });
});
