import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkHealth, hasWarning } from '../../../../src/core/health/check';
import { HEALTH_KINDS, type HealthInput, type HealthKind } from '../../../../src/core/health/findings';
import { HEALTH_DEFAULTS } from '../../../../src/core/health/thresholds';
import type { MetricPoint } from '../../../../src/core/metrics/mlflow';

const STEP_MS = 60_000;
const T0 = Date.UTC(2026, 9, 2);

/** A series of `values` at steps `from`, `from`+1, …, one minute apart. */
function series(key: string, values: readonly number[], from = 1, every = 1): MetricPoint[] {
  return values.map((value, i) => ({ key, value, step: from + i * every, timestamp: T0 + (from + i * every) * STEP_MS }));
}

const flat = (n: number, value: number) => Array.from({ length: n }, () => value);

/** A healthy 20-step run: every key the checks read, steady. */
function healthy(n = 20): Record<string, MetricPoint[]> {
  return {
    'rollout/reward/mean': series('rollout/reward/mean', flat(n, 0.5)),
    'rollout/reward/std': series('rollout/reward/std', flat(n, 0.4)),
    'rollout/reward/max': series('rollout/reward/max', flat(n, 1)),
    'rollout/tokens/response_max': series('rollout/tokens/response_max', flat(n, 3000)),
    'rollout/tokens/response_mean': series('rollout/tokens/response_mean', flat(n, 1300)),
    'rollout/turns/mean': series('rollout/turns/mean', flat(n, 4.5)),
    'rollout/advantage/std': series('rollout/advantage/std', flat(n, 0.9)),
    'training/num_groups': series('training/num_groups', flat(n, 32)),
    'analysis/zero_adv_groups': series('analysis/zero_adv_groups', flat(n, 3)),
    'analysis/mean_group_reward_spread': series('analysis/mean_group_reward_spread', flat(n, 2)),
    'analysis/batch_valid_ratio': series('analysis/batch_valid_ratio', flat(n, 0.97)),
    'analysis/batch_completion_ratio': series('analysis/batch_completion_ratio', flat(n, 1)),
    'val/reward/pass_at_1': series('val/reward/pass_at_1', flat(n / 5 + 1, 0.5), 0, 5),
  };
}

function input(s: Record<string, MetricPoint[]>, extra: Partial<HealthInput> = {}): HealthInput {
  return {
    category: 'AgentRFT',
    series: s,
    hyperParameters: { sampling_max_tokens: '4096', global_batch_size: '32' },
    running: false,
    now: T0 + 21 * STEP_MS,
    ...extra,
  };
}

/** `key`'s values from step `from` on replaced by `value`. */
function bent(s: Record<string, MetricPoint[]>, key: string, from: number, value: (v: number, step: number) => number) {
  return { ...s, [key]: s[key].map((p) => (p.step >= from ? { ...p, value: value(p.value, p.step) } : p)) };
}

const only = (report: ReturnType<typeof checkHealth>, kind: HealthKind) => {
  assert.deepEqual(
    report.findings.map((f) => f.kind),
    [kind],
  );
  return report.findings[0];
};

describe('run health checks', () => {
  it('a steady run with every key gives no finding and checks everything but stalled (not running)', () => {
    const report = checkHealth(input(healthy()));
    assert.deepEqual(report.findings, []);
    assert.deepEqual(report.notChecked, [{ kind: 'stalled', reason: 'the job is not running' }]);
    assert.equal(report.steps, 20);
  });

  it('truncation: response_max at sampling_max_tokens for 2 steps, at the first of them; one step is not enough', () => {
    const once = bent(healthy(), 'rollout/tokens/response_max', 9, (v, step) => (step === 9 ? 4096 : v));
    assert.deepEqual(checkHealth(input(once)).findings, []);
    const f = only(checkHealth(input(bent(healthy(), 'rollout/tokens/response_max', 12, () => 4096))), 'truncation');
    assert.equal(f.step, 12);
    assert.equal(f.severity, 'warning');
    assert.equal(f.metric, 'rollout/tokens/response_max');
    assert.equal(f.threshold.setting, 'mtrl.health.steps');
    assert.match(f.sentence, /sampling_max_tokens \(4,096\) at steps 12–13/);
    assert.match(f.action, /Raise sampling_max_tokens/);
  });

  it('a condition that held and stopped is info, not a warning', () => {
    const s = bent(healthy(), 'rollout/tokens/response_max', 5, (v, step) => (step <= 7 ? 4096 : v));
    const report = checkHealth(input(s));
    assert.equal(only(report, 'truncation').severity, 'info');
    assert.equal(hasWarning(report), false);
  });

  it('no signal: zero-advantage groups at the share setting (60 %) for 2 steps; the std fallback when the run lacks the key', () => {
    const f = only(checkHealth(input(bent(healthy(), 'analysis/zero_adv_groups', 7, () => 20))), 'no-signal');
    assert.equal(f.step, 7);
    assert.match(f.sentence, /63 % of the groups \(20 of 32\)/);
    assert.equal(f.threshold.setting, 'mtrl.health.zeroAdvantageShare');
    const withoutKey = bent(healthy(), 'rollout/reward/std', 11, () => 0);
    delete (withoutKey as Record<string, unknown>)['analysis/zero_adv_groups'];
    assert.equal(only(checkHealth(input(withoutKey)), 'no-signal').step, 11);
    // Every rollout at the best reward is a solved task set, not a dead one.
    const solved = bent(
      bent(withoutKey, 'rollout/reward/mean', 11, () => 1),
      'rollout/reward/std',
      11,
      () => 0,
    );
    assert.deepEqual(checkHealth(input(solved)).findings, []);
  });

  it('collapse: spread and advantage std falling together, not one alone; turns collapsing on their own', () => {
    const spread = bent(healthy(), 'analysis/mean_group_reward_spread', 10, () => 0.2);
    assert.deepEqual(checkHealth(input(spread)).findings, [], 'the spread alone is not a collapse');
    const both = bent(spread, 'rollout/advantage/std', 11, () => 0.05);
    const f = only(checkHealth(input(both)), 'collapse');
    assert.equal(f.step, 11);
    assert.equal(f.threshold.setting, 'mtrl.health.collapseShare');
    const turns = only(checkHealth(input(bent(healthy(), 'rollout/turns/mean', 15, () => 1))), 'collapse');
    assert.equal(turns.metric, 'rollout/turns/mean');
    assert.equal(turns.step, 15);
  });

  it('overfitting: validation below its best for 2 points while training reward rises, at the first point below', () => {
    let s = bent(healthy(), 'val/reward/pass_at_1', 10, () => 0.3);
    assert.deepEqual(checkHealth(input(s)).findings, [], 'validation falling with a flat training reward is not overfitting');
    s = bent(s, 'rollout/reward/mean', 8, (v, step) => v + 0.05 * (step - 7));
    const f = only(checkHealth(input(s)), 'overfitting');
    assert.equal(f.step, 10);
    assert.equal(f.metric, 'val/reward/pass_at_1');
    assert.deepEqual(f.values[0], { step: 5, value: 0.5 });
    assert.match(f.action, /checkpoint of step 5/);
    const onePoint = bent(s, 'val/reward/pass_at_1', 15, () => 0.5);
    assert.deepEqual(checkHealth(input(onePoint)).findings, [], 'one point below the best is not enough');
  });

  it('failing rollouts: the failed share at the guessed setting for 2 steps', () => {
    const f = only(checkHealth(input(bent(healthy(), 'analysis/batch_valid_ratio', 14, () => 0.7))), 'failing-rollouts');
    assert.equal(f.step, 14);
    assert.equal(f.threshold.setting, 'mtrl.health.failedRolloutShare');
    assert.match(f.threshold.text, /a guess/);
    const loose = checkHealth(input(bent(healthy(), 'analysis/batch_valid_ratio', 14, () => 0.7)), {
      ...HEALTH_DEFAULTS,
      failedRolloutShare: 0.5,
    });
    assert.deepEqual(loose.findings, [], 'a higher setting is not crossed');
  });

  it('stalled: only while running, after 3 median step times without a step, and not past the last step', () => {
    const s = healthy(10);
    const at = (minutes: number, extra: Partial<HealthInput> = {}) =>
      checkHealth(input(s, { running: true, now: T0 + (10 + minutes) * STEP_MS, ...extra }));
    assert.deepEqual(at(2).findings, []);
    const f = only(at(4), 'stalled');
    assert.equal(f.step, 10);
    assert.match(f.sentence, /No new step since step 10, 4m 00s ago, while a step has taken about 1m 00s/);
    assert.deepEqual(at(30, { totalSteps: 10 }).findings, [], 'past its last step the job is uploading');
    assert.deepEqual(at(30, { running: false }).findings, []);
  });

  it('never fires on too few steps, and lists what it could not check and why', () => {
    const s = Object.fromEntries(
      Object.entries(healthy(1)).map(([k, v]) => [k, v.map((p) => ({ ...p, value: k.includes('response_max') ? 4096 : 0 }))]),
    );
    const report = checkHealth(input(s, { running: true }));
    assert.deepEqual(report.findings, []);
    assert.deepEqual(
      report.notChecked.map((n) => n.kind),
      ['truncation', 'no-signal', 'collapse', 'overfitting', 'failing-rollouts', 'stalled'],
    );
    assert.match(report.notChecked[0].reason, /1 steps logged; the check needs 2/);
  });

  it("the real run's metrics (four keys, 10 steps) give no warning and say what the run does not log", () => {
    const file = path.join(__dirname, '../../../fixtures/real-run/training_metrics.json');
    const { steps } = JSON.parse(readFileSync(file, 'utf8')) as { steps: Array<Record<string, number>> };
    const s: Record<string, MetricPoint[]> = {};
    for (const row of steps)
      for (const [key, value] of Object.entries(row))
        if (key !== 'step') (s[key] ??= []).push({ key, value, step: row.step, timestamp: T0 + row.step * 115_000 });
    const report = checkHealth(input(s, { hyperParameters: { sampling_max_tokens: '512', global_batch_size: '32' } }));
    assert.deepEqual(report.findings, []);
    assert.equal(report.steps, 10);
    const reasons = Object.fromEntries(report.notChecked.map((n) => [n.kind, n.reason]));
    assert.match(reasons.truncation, /logs no rollout\/tokens\/response_max/);
    assert.match(reasons['no-signal'], /neither analysis\/zero_adv_groups nor rollout\/reward\/std/);
    assert.match(reasons.overfitting, /no val\/\* metrics/);
    assert.match(reasons['failing-rollouts'], /batch_valid_ratio/);
  });

  it('an evaluation is checked for truncation only, on its one result', () => {
    const s = { 'eval/tokens/response_max': [{ key: 'eval/tokens/response_max', value: 8192, step: 0, timestamp: T0 }] };
    const report = checkHealth(input(s, { category: 'AgentRFTEvaluation', hyperParameters: { sampling_max_tokens: '8192' } }));
    assert.equal(only(report, 'truncation').step, 0);
    assert.equal(report.notChecked.length, 5);
  });

  it('docs/health.md and the README give each kind a row and each threshold setting its default', () => {
    for (const [file, cell] of [
      ['docs/health.md', (kind: string) => `\`${kind}\``],
      ['README.md', (kind: string) => kind],
    ] as const) {
      const doc = readFileSync(path.join(__dirname, '../../../..', file), 'utf8');
      for (const kind of HEALTH_KINDS) assert.match(doc, new RegExp(`^\\| ${cell(kind)} \\|`, 'm'), `${file}: no row for ${kind}`);
      for (const [key, value] of Object.entries(HEALTH_DEFAULTS))
        assert.match(
          doc,
          new RegExp(`\`mtrl\\.health\\.${key}\` \\(${String(value).replace('.', '\\.')}[,) ]`),
          `${file}: mtrl.health.${key} (${value})`,
        );
    }
  });
});
