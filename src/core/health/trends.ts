import { formatDuration } from '../jobs/timeline';
import type { MetricPoint } from '../metrics/mlflow';
import type { HealthInput } from './findings';
import { median, pointsOf, shownValues, valueText } from './series';
import type { HealthThresholds } from './thresholds';
import type { CheckResult } from './training';

/** Training steps averaged on each side of an overfitting comparison (the sample plots a 10-step average; validation is sparser). */
const TRAINING_WINDOW = 5;

/** The mean training reward over the last TRAINING_WINDOW steps up to `step` (the first step's value before any). */
function trailingMean(training: readonly MetricPoint[], step: number): number {
  const upTo = training.filter((p) => p.step <= step).slice(-TRAINING_WINDOW);
  const used = upTo.length ? upTo : training.slice(0, 1);
  return used.reduce((sum, p) => sum + p.value, 0) / used.length;
}

/** Overfitting or reward hacking: validation `validationPoints` points in a row below its best by `validationDrop` while training reward rises. */
export function overfitting(input: HealthInput, t: HealthThresholds): CheckResult {
  const metric = pointsOf(input.series, 'val/reward/pass_at_1').length ? 'val/reward/pass_at_1' : 'val/reward/mean';
  const validation = pointsOf(input.series, metric);
  const training = pointsOf(input.series, 'rollout/reward/mean');
  if (!validation.length) return { notChecked: 'the run logs no val/* metrics (no validation channel)' };
  if (!training.length) return { notChecked: 'the run logs no rollout/reward/mean' };
  const need = 1 + t.validationPoints;
  if (validation.length < need) return { notChecked: `${validation.length} validation points logged; the check needs ${need}` };
  let best = 0;
  for (let j = 1; j + t.validationPoints <= validation.length; j++) {
    // On a tie the later point: its checkpoint has trained longer.
    if (validation[j - 1].value >= validation[best].value) best = j - 1;
    const top = validation[best];
    const below = validation.slice(j, j + t.validationPoints);
    if (!below.every((p) => p.value <= top.value - t.validationDrop)) continue;
    const end = below[below.length - 1];
    const [before, after] = [trailingMean(training, top.step), trailingMean(training, end.step)];
    if (after <= before) continue;
    const overall = Math.max(...validation.map((p) => p.value));
    const latest = validation[validation.length - 1];
    const name = metric === 'val/reward/pass_at_1' ? 'Validation pass@1' : 'Validation mean reward';
    return {
      finding: {
        kind: 'overfitting',
        severity: latest.value <= overall - t.validationDrop ? 'warning' : 'info',
        step: below[0].step,
        metric,
        values: [{ step: top.step, value: top.value }, ...shownValues(validation, j, 3)],
        sentence: `${name} fell from ${valueText(top.value)} at step ${top.step} (its best) to ${valueText(below[0].value)} at step ${below[0].step} while training reward rose from ${valueText(before)} to ${valueText(after)}: the policy is learning something the validation tasks do not reward (overfitting or reward hacking).`,
        action: `Stop the job and keep the checkpoint of step ${top.step} (every step saves one; give it as InputModelPackageArn to resume from it), then re-score recorded rollouts with another reward (Re-score Shown Rollouts with a Reward…) to find how the policy scores without solving the task.`,
        threshold: {
          setting: 'mtrl.health.validationDrop',
          value: t.validationDrop,
          text: `${metric} ≥ ${valueText(t.validationDrop)} below its best for ${t.validationPoints} validation points in a row (mtrl.health.validationPoints) while the training reward rises`,
        },
      },
    };
  }
  return {};
}

/** The training keys whose timestamps say when a step finished. */
const STEP_KEYS = ['rollout/reward/mean', 'timing_s/step', 'rollout/turns/mean'];

/** Stalled: no new step for `stalledStepTimes` median step times while the job is in progress. */
export function stalled(input: HealthInput, t: HealthThresholds): CheckResult {
  if (!input.running) return { notChecked: 'the job is not running' };
  const key = STEP_KEYS.find((k) => pointsOf(input.series, k).length);
  if (!key) return { notChecked: `the run logs none of ${STEP_KEYS.join(', ')}` };
  const points = pointsOf(input.series, key).filter((p) => p.step > 0 && p.timestamp > 0);
  if (points.length < 3) return { notChecked: `${points.length} steps logged; the check needs 3 to know a step's time` };
  const last = points[points.length - 1];
  if (input.totalSteps !== undefined && last.step >= input.totalSteps) return {};
  const times = points.slice(1).map((p, i) => (p.timestamp - points[i].timestamp) / (p.step - points[i].step));
  const stepMs = median(times.filter((ms) => ms > 0));
  const waited = input.now - last.timestamp;
  if (!(stepMs > 0) || waited < t.stalledStepTimes * stepMs) return {};
  return {
    finding: {
      kind: 'stalled',
      severity: 'warning',
      step: last.step,
      metric: key,
      values: shownValues(points, Math.max(0, points.length - 3)),
      sentence: `No new step since step ${last.step}, ${formatDuration(waited)} ago, while a step has taken about ${formatDuration(stepMs)}: the job is in progress but not moving.`,
      action:
        "Open the job's Service logs (a restart or a wait for capacity shows there) and the agent runtime's logs (a rollout that hangs until rollout_timeout); stop the job if it does not move on.",
      threshold: {
        setting: 'mtrl.health.stalledStepTimes',
        value: t.stalledStepTimes,
        text: `no new step for ${valueText(t.stalledStepTimes)} median step times (${formatDuration(t.stalledStepTimes * stepMs)})`,
      },
    },
  };
}
