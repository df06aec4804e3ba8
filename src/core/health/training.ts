import type { MetricPoint } from '../metrics/mlflow';
import type { HealthFinding, HealthInput } from './findings';
import { firstRun, median, percentText, pointsOf, shownValues, stepsText, valueText } from './series';
import type { HealthThresholds } from './thresholds';

/** A check's outcome: a finding, a reason it could not look, or neither (it looked and found nothing). */
export interface CheckResult {
  finding?: HealthFinding;
  notChecked?: string;
}

/** The recipe's sampling_max_tokens when the job file sets none. */
const DEFAULT_MAX_TOKENS = 4096;
/** Steps whose median is "where the run started" for collapse. */
const BASELINE_STEPS = 3;

const tooFew = (have: number, need: number, what = 'steps') => `${have} ${what} logged; the check needs ${need}`;

/** The earliest of several findings (each key checked on its own). */
function earliest(results: CheckResult[]): CheckResult {
  const found = results.filter((r) => r.finding).sort((a, b) => a.finding!.step - b.finding!.step);
  return found[0] ?? results.find((r) => r.notChecked) ?? {};
}

/** Responses cut at the cap: rollout/tokens/response_max (or val/…, eval/…) at sampling_max_tokens for `steps` steps in a row. */
export function truncation(input: HealthInput, t: HealthThresholds): CheckResult {
  const training = input.category === 'AgentRFT';
  const keys = training ? ['rollout/tokens/response_max', 'val/tokens/response_max'] : ['eval/tokens/response_max'];
  const cap = Number(input.hyperParameters.sampling_max_tokens ?? DEFAULT_MAX_TOKENS) || DEFAULT_MAX_TOKENS;
  // An evaluation logs one result over all its rollouts.
  const need = training ? t.steps : 1;
  const logged = keys.filter((k) => pointsOf(input.series, k).length);
  if (!logged.length) return { notChecked: `the run logs no ${keys.join(' or ')}` };
  return earliest(
    logged.map((metric): CheckResult => {
      const points = pointsOf(input.series, metric);
      if (points.length < need) return { notChecked: tooFew(points.length, need) };
      const at = firstRun(points, (p) => p.value >= cap, need);
      if (at < 0) return {};
      const run = points.slice(at, at + need);
      return {
        finding: {
          kind: 'truncation',
          severity: points[points.length - 1].value >= cap ? 'warning' : 'info',
          step: points[at].step,
          metric,
          values: shownValues(points, at),
          sentence: `The longest response reached sampling_max_tokens (${valueText(cap)}) at ${stepsText(run)}: responses are cut off there, so those rollouts end without an answer and score as failures.`,
          action: `Raise sampling_max_tokens (8,192 is the service maximum), or ask for shorter reasoning in the agent's prompt (gpt-oss: a lower reasoning effort).`,
          threshold: {
            setting: 'mtrl.health.steps',
            value: need,
            text: `${metric} ≥ sampling_max_tokens ${valueText(cap)} ${training ? `for ${need} steps in a row` : 'in the result'}`,
          },
        },
      };
    }),
  );
}

/** Groups that teach nothing: analysis/zero_adv_groups ÷ groups at or above the share, else a reward std of 0 below the best reward. */
export function noSignal(input: HealthInput, t: HealthThresholds): CheckResult {
  const zero = pointsOf(input.series, 'analysis/zero_adv_groups');
  const groups = new Map(pointsOf(input.series, 'training/num_groups').map((p) => [p.step, p.value]));
  const batch = Number(input.hyperParameters.global_batch_size ?? 128) || 128;
  const action =
    'The tasks are too easy or too hard for this reward: mix task difficulties in the dataset, give partial credit, or raise group_size; MTRL: Check Learning Signal measures it on a few tasks before you pay for steps.';
  if (zero.length) {
    if (zero.length < t.steps) return { notChecked: tooFew(zero.length, t.steps) };
    const share = (p: MetricPoint) => p.value / (groups.get(p.step) || batch);
    const at = firstRun(zero, (p) => share(p) >= t.zeroAdvantageShare, t.steps);
    if (at < 0) return {};
    const first = zero[at];
    return {
      finding: {
        kind: 'no-signal',
        severity: share(zero[zero.length - 1]) >= t.zeroAdvantageShare ? 'warning' : 'info',
        step: first.step,
        metric: 'analysis/zero_adv_groups',
        values: shownValues(zero, at),
        sentence: `From step ${first.step}, ${percentText(share(first))} of the groups (${valueText(first.value)} of ${valueText(groups.get(first.step) || batch)}) had every rollout score the same, so they teach nothing: GRPO learns only from differences within a group.`,
        action,
        threshold: {
          setting: 'mtrl.health.zeroAdvantageShare',
          value: t.zeroAdvantageShare,
          text: `zero-advantage groups ≥ ${percentText(t.zeroAdvantageShare)} of the groups for ${t.steps} steps in a row`,
        },
      },
    };
  }
  const std = pointsOf(input.series, 'rollout/reward/std');
  if (!std.length) return { notChecked: 'the run logs neither analysis/zero_adv_groups nor rollout/reward/std' };
  if (std.length < t.steps) return { notChecked: tooFew(std.length, t.steps) };
  const means = new Map(pointsOf(input.series, 'rollout/reward/mean').map((p) => [p.step, p.value]));
  const best = Math.max(...pointsOf(input.series, 'rollout/reward/max').map((p) => p.value), ...means.values());
  const flat = (p: MetricPoint) => p.value <= 1e-6 && (means.get(p.step) ?? best) < best - 1e-6;
  const at = firstRun(std, flat, t.steps);
  if (at < 0) return {};
  return {
    finding: {
      kind: 'no-signal',
      severity: flat(std[std.length - 1]) ? 'warning' : 'info',
      step: std[at].step,
      metric: 'rollout/reward/std',
      values: shownValues(std, at),
      sentence: `From step ${std[at].step}, every rollout of a step scored the same (reward std 0) below the best reward the run has seen: no group can teach anything.`,
      action,
      threshold: { setting: 'mtrl.health.steps', value: t.steps, text: `rollout/reward/std 0 for ${t.steps} steps in a row` },
    },
  };
}

/** Rollouts failing: 1 − analysis/batch_valid_ratio (or batch_completion_ratio) at or above the share for `steps` steps. */
export function failingRollouts(input: HealthInput, t: HealthThresholds): CheckResult {
  const keys = ['analysis/batch_valid_ratio', 'analysis/batch_completion_ratio'].filter((k) => pointsOf(input.series, k).length);
  if (!keys.length) return { notChecked: 'the run logs neither analysis/batch_valid_ratio nor analysis/batch_completion_ratio' };
  return earliest(
    keys.map((metric): CheckResult => {
      const points = pointsOf(input.series, metric);
      if (points.length < t.steps) return { notChecked: tooFew(points.length, t.steps) };
      const failing = (p: MetricPoint) => 1 - p.value >= t.failedRolloutShare;
      const at = firstRun(points, failing, t.steps);
      if (at < 0) return {};
      return {
        finding: {
          kind: 'failing-rollouts',
          severity: failing(points[points.length - 1]) ? 'warning' : 'info',
          step: points[at].step,
          metric,
          values: shownValues(points, at),
          sentence: `From step ${points[at].step}, ${percentText(1 - points[at].value)} of the rollouts failed or were invalid (${metric} ${valueText(points[at].value)}); the share at which the service cancels a job is not documented.`,
          action: `Read the agent's logs (the job's Service logs, then the runtime's log group) for the error, and smoke-test the runtime (MTRL: Smoke Test Agent Runtime) before the next run.`,
          threshold: {
            setting: 'mtrl.health.failedRolloutShare',
            value: t.failedRolloutShare,
            text: `failed or invalid rollouts ≥ ${percentText(t.failedRolloutShare)} (a guess: the share that cancels a job is not documented) for ${t.steps} steps in a row`,
          },
        },
      };
    }),
  );
}

const SPREAD = 'analysis/mean_group_reward_spread';
const ADVANTAGE = 'rollout/advantage/std';

/** A metric falling to `collapseShare` of its first steps' median, for `steps` steps; `with` must fall with it when given. */
function fellTo(input: HealthInput, t: HealthThresholds, metric: string, alongside?: string): CheckResult & { level?: number[] } {
  const points = pointsOf(input.series, metric).filter((p) => p.step > 0);
  const need = BASELINE_STEPS + t.steps;
  if (points.length < need) return { notChecked: tooFew(points.length, need) };
  const base = median(points.slice(0, BASELINE_STEPS).map((p) => p.value));
  const other = alongside ? pointsOf(input.series, alongside).filter((p) => p.step > 0) : [];
  const otherBase = other.length >= BASELINE_STEPS ? median(other.slice(0, BASELINE_STEPS).map((p) => p.value)) : 0;
  const otherAt = new Map(other.map((p) => [p.step, p.value]));
  if (base <= 0 || (alongside && otherBase <= 0)) return {};
  const low = (p: MetricPoint, i: number) =>
    i >= BASELINE_STEPS &&
    p.value <= t.collapseShare * base &&
    (!alongside || (otherAt.get(p.step) ?? Infinity) <= t.collapseShare * otherBase);
  const at = firstRun(points, low, t.steps);
  if (at < 0) return {};
  const first = points[at];
  const last = points.length - 1;
  const shares = [first.value / base, ...(alongside ? [(otherAt.get(first.step) ?? 0) / otherBase] : [])];
  return {
    level: shares,
    finding: {
      kind: 'collapse',
      severity: low(points[last], last) ? 'warning' : 'info',
      step: first.step,
      metric,
      values: shownValues(points, at),
      sentence: '',
      action:
        'Stop, and run again from an earlier checkpoint with max_steps_off_policy 0 (the guide: "set to 0 when debugging collapse") and a lower learning_rate.',
      threshold: {
        setting: 'mtrl.health.collapseShare',
        value: t.collapseShare,
        text: `${alongside ? `${metric} and ${alongside}` : metric} ≤ ${percentText(t.collapseShare)} of the first ${BASELINE_STEPS} steps' level for ${t.steps} steps in a row`,
      },
    },
  };
}

/** Collapse: within-group spread and advantage std falling toward 0 together, or turns or response length collapsing. */
export function collapse(input: HealthInput, t: HealthThresholds): CheckResult {
  const has = (k: string) => pointsOf(input.series, k).length > 0;
  const results: CheckResult[] = [];
  if (has(SPREAD) && has(ADVANTAGE)) {
    const r = fellTo(input, t, SPREAD, ADVANTAGE);
    if (r.finding && r.level)
      r.finding.sentence = `From step ${r.finding.step}, the reward spread within groups and the advantage std fell together to ${percentText(r.level[0])} and ${percentText(r.level[1])} of the first steps' level: the policy gives every rollout of a task the same answer (collapse).`;
    results.push(r);
  }
  for (const [metric, what] of [
    ['rollout/turns/mean', 'turns per rollout'],
    ['rollout/tokens/response_mean', 'response length'],
  ] as const) {
    if (!has(metric)) continue;
    const r = fellTo(input, t, metric);
    if (r.finding && r.level)
      r.finding.sentence = `From step ${r.finding.step}, ${what} fell to ${percentText(r.level[0])} of the first steps' level (${valueText(r.finding.values[0].value)}): the agent stopped working the task (collapse).`;
    results.push(r);
  }
  if (!results.length)
    return { notChecked: `the run logs neither ${SPREAD} with ${ADVANTAGE} nor rollout/turns/mean or rollout/tokens/response_mean` };
  return earliest(results);
}
