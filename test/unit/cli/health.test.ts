import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { SEEDED } from '../../../src/emulator/seed';
import { HEALTH_JOBS, HEALTH_REGION } from '../../../src/emulator/seedHealth';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import type { HealthKind } from '../../../src/core/health/findings';
import { ceiling } from '../../host/lib/ceiling';
import { computeMetricsAhead } from '../emulator/helpers';

process.env.AWS_ACCESS_KEY_ID ??= 'test';
process.env.AWS_SECRET_ACCESS_KEY ??= 'test';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

interface Json {
  job: string;
  steps: number;
  findings: {
    kind: string;
    severity: string;
    step: number;
    metric: string;
    sentence: string;
    action: string;
    threshold: { setting: string; value: number; text: string };
  }[];
  not_checked: { kind: string; reason: string }[];
}

describe('mtrl health, through MLflow on the emulator', function () {
  this.timeout(ceiling(180_000));
  let emulator: Emulator;

  // The CLI checks "stalled" against the wall clock, so the emulator runs on it too (the running job keeps stepping).
  before(async () => {
    emulator = await startEmulator({});
    computeMetricsAhead(emulator.world);
  });
  after(() => emulator.close());

  for (const [kind, seeded] of Object.entries(HEALTH_JOBS) as [HealthKind, { job: string; step: number }][]) {
    it(`finds ${kind} at step ${seeded.step} of ${seeded.job}, and nothing else (exit 1, --json in the issue's shape)`, async () => {
      const result = await run('health', seeded.job, '--region', HEALTH_REGION, '--endpoint', emulator.url, '--json');
      assert.equal(result.code, 1, result.err);
      const json = JSON.parse(result.out) as Json;
      assert.deepEqual(Object.keys(json), ['job', 'steps', 'findings', 'not_checked']);
      assert.equal(json.job, seeded.job);
      assert.deepEqual(
        json.findings.map((f) => [f.kind, f.severity, f.step]),
        [[kind, 'warning', seeded.step]],
      );
      assert.deepEqual(Object.keys(json.findings[0]), ['kind', 'severity', 'step', 'metric', 'sentence', 'action', 'threshold']);
      assert.match(json.findings[0].threshold.setting, /^mtrl\.health\./, 'the finding names the threshold setting it crossed');
      assert.equal(typeof json.findings[0].threshold.value, 'number');
      assert.ok(json.steps >= seeded.step);
      assert.deepEqual(
        json.not_checked.map((n) => n.kind),
        // Stalled at step 8, the run has validated twice (steps 0 and 5): too few points to tell overfitting.
        kind === 'stalled' ? ['overfitting'] : ['stalled'],
        'a finished job is not checked for stalls; everything else is logged',
      );
    });
  }

  it('prints a finding with its metric, threshold setting and action as text', async () => {
    const { job } = HEALTH_JOBS['failing-rollouts'];
    const result = await run('health', `arn:aws:sagemaker:${HEALTH_REGION}:111122223333:job/AgentRFT/${job}`, '--endpoint', emulator.url);
    assert.equal(result.code, 1, result.err);
    assert.match(result.out, /^WARNING failing-rollouts at step 16: /m);
    assert.match(result.out, /threshold: .*a guess.*\(mtrl\.health\.failedRolloutShare = 0\.2\)/);
    assert.match(result.out, /what to do: Read the agent's logs/);
  });

  it('--scan also scans the rollouts: the same curve findings, and a rising-scan finding only when a kind rose', async () => {
    const { job } = HEALTH_JOBS['failing-rollouts'];
    const plain = JSON.parse((await run('health', job, '--region', HEALTH_REGION, '--endpoint', emulator.url, '--json')).out) as Json;
    const result = await run('health', job, '--scan', '--region', HEALTH_REGION, '--endpoint', emulator.url, '--json');
    assert.equal(result.code, 1, result.err);
    const scanned = JSON.parse(result.out) as Json;
    assert.deepEqual(
      scanned.findings.filter((f) => f.kind !== 'rising-scan'),
      plain.findings,
    );
    for (const f of scanned.findings.filter((f) => f.kind === 'rising-scan'))
      assert.match(f.sentence, /: 0 % until step \d+, \d+ % at step \d+, /);
  });

  it('gives no warning on any other seeded job, training or evaluation (exit 0)', async () => {
    // The running job stepped on since the file began: its new steps are played now, not inside one CLI answer's 30 s.
    computeMetricsAhead(emulator.world);
    const others = [...emulator.world.jobs.values()].filter((j) => j.region !== HEALTH_REGION);
    // The history the other views know: a completed, a running, a failed and a replayed real run, and their evaluations.
    for (const name of [
      SEEDED.completedJob,
      SEEDED.inProgressJob,
      SEEDED.failedJob,
      SEEDED.refundJob,
      SEEDED.restartedJob,
      SEEDED.baseEvaluation,
    ])
      assert.ok(
        others.some((j) => j.name === name),
        `${name} is not seeded`,
      );
    for (const job of others) {
      const evaluation = job.category === 'AgentRFTEvaluation' ? ['--evaluation'] : [];
      const result = await run('health', job.name, ...evaluation, '--region', job.region, '--endpoint', emulator.url, '--json');
      assert.equal(result.code, 0, `${job.name}: ${result.out}${result.err}`);
      assert.deepEqual((JSON.parse(result.out) as Json).findings, [], job.name);
    }
  });

  it('exits 2 with a sentence when the metrics cannot be read, and on usage errors', async () => {
    const missing = await run('health', 'no-such-job', '--endpoint', emulator.url);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^mtrl health: Reading the metrics of no-such-job failed: /);
    assert.equal((await run('health')).code, 2);
    assert.match((await run('health', 'arn:aws:sagemaker:us-east-1:1:job/x')).err, /is not a job ARN/);
  });
});
