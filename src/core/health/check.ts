import { HEALTH_KINDS, type HealthFinding, type HealthInput, type HealthKind, type HealthReport, type NotChecked } from './findings';
import { risingScan } from './scanRising';
import { HEALTH_DEFAULTS, type HealthThresholds } from './thresholds';
import { collapse, failingRollouts, noSignal, truncation, type CheckResult } from './training';
import { overfitting, stalled } from './trends';

/** The metric keys the checks read: a job's health loads only these. */
export const HEALTH_KEYS: readonly string[] = [
  'rollout/reward/mean',
  'rollout/reward/std',
  'rollout/reward/max',
  'rollout/tokens/response_max',
  'rollout/tokens/response_mean',
  'rollout/turns/mean',
  'rollout/advantage/std',
  'training/num_groups',
  'timing_s/step',
  'analysis/zero_adv_groups',
  'analysis/mean_group_reward_spread',
  'analysis/batch_valid_ratio',
  'analysis/batch_completion_ratio',
  'val/reward/mean',
  'val/reward/pass_at_1',
  'val/tokens/response_max',
  'eval/tokens/response_max',
];

const CHECKS: Record<HealthKind, (input: HealthInput, t: HealthThresholds) => CheckResult> = {
  truncation,
  'no-signal': noSignal,
  collapse,
  overfitting,
  'failing-rollouts': failingRollouts,
  stalled,
};

/** Only truncation reads an evaluation: its one result has no steps to follow. */
const EVALUATION_KINDS: readonly HealthKind[] = ['truncation'];

/** Every check over a job's metrics: findings by step, and what could not be checked with why. */
export function checkHealth(input: HealthInput, thresholds: HealthThresholds = HEALTH_DEFAULTS): HealthReport {
  const findings: HealthFinding[] = [];
  const notChecked: NotChecked[] = [];
  for (const kind of HEALTH_KINDS) {
    if (input.category === 'AgentRFTEvaluation' && !EVALUATION_KINDS.includes(kind)) {
      notChecked.push({ kind, reason: 'checked on training jobs only' });
      continue;
    }
    const result = CHECKS[kind](input, thresholds);
    if (result.finding) findings.push(result.finding);
    else if (result.notChecked) notChecked.push({ kind, reason: result.notChecked });
  }
  const rising = input.scan && input.category === 'AgentRFT' ? risingScan(input.scan, thresholds) : undefined;
  if (rising) findings.push(rising);
  findings.sort((a, b) => a.step - b.step);
  return { steps: stepsOf(input), findings, notChecked, ...(input.refused ? { refused: input.refused } : {}) };
}

function stepsOf(input: HealthInput): number {
  const points = Object.values(input.series).flat();
  if (input.category === 'AgentRFTEvaluation') return points.length ? 1 : 0;
  let steps = 0;
  for (const p of points) if (p.step > steps) steps = p.step;
  return steps;
}

/** Whether any finding still holds: what makes `mtrl health` exit 1 and the Jobs view show its warning. */
export function hasWarning(report: HealthReport): boolean {
  return report.findings.some((f) => f.severity === 'warning');
}
