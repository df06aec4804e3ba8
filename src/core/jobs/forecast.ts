import { costOf, formatDollars, modelIdOf, type Cost, type PricingTable } from './pricing';
import { progressOf } from './status';
import type { JobDetails } from './job';
import { formatDuration } from './timeline';

/** Where a running training job is heading at its current step rate. */
interface Forecast {
  step: number;
  totalSteps: number;
  msPerStep: number;
  /** When the last step should finish (the upload after it is not counted). */
  remainingMs: number;
  /** Cost so far scaled by total steps / steps done; undefined without usage or a price. */
  projectedCost?: number;
}

/** The mean step time of the last `window` steps from the timestamps of a per-step metric (e.g. `rollout/reward/mean`). */
export function msPerStepOf(points: readonly { step: number; timestamp: number }[], window = 10): number | undefined {
  const sorted = [...points].filter((p) => p.step > 0).sort((a, b) => a.step - b.step);
  if (sorted.length < 2) return undefined;
  const last = sorted[sorted.length - 1];
  const first = sorted[Math.max(0, sorted.length - 1 - window)];
  const steps = last.step - first.step;
  return steps > 0 && last.timestamp > first.timestamp ? (last.timestamp - first.timestamp) / steps : undefined;
}

/** The step rate since training started (DescribeJob's Training transition), for the jobs tree where no MLflow is read. */
function msPerStepSinceStart(job: JobDetails, step: number, now: Date): number | undefined {
  const training = job.transitions.find((t) => t.Status === 'Training');
  const start = training?.StartTime?.getTime();
  if (start === undefined || step <= 0) return undefined;
  const ms = (now.getTime() - start) / step;
  return ms > 0 ? ms : undefined;
}

/** ETA and projected cost of an in-progress training job; undefined when it is not running, has no total or no rate yet. */
export function forecastOf(job: JobDetails, pricing: PricingTable, now: Date, msPerStep?: number): Forecast | undefined {
  if (job.status !== 'InProgress' || job.category !== 'AgentRFT') return undefined;
  const output = job.document?.ServiceOutput;
  const progress = progressOf(output?.ProgressInfo);
  if (!progress?.totalSteps || progress.step <= 0 || progress.step >= progress.totalSteps) return undefined;
  const rate = msPerStep ?? msPerStepSinceStart(job, progress.step, now);
  if (!rate) return undefined;
  const model = modelIdOf((job.document?.TrainingConfig ?? job.document?.EvaluationConfig)?.BaseModelArn);
  const cost: Cost | undefined = costOf(output?.BillableTokenUsage, model ? pricing[model] : undefined);
  return {
    step: progress.step,
    totalSteps: progress.totalSteps,
    msPerStep: rate,
    remainingMs: (progress.totalSteps - progress.step) * rate,
    projectedCost: cost ? (cost.total * progress.totalSteps) / progress.step : undefined,
  };
}

/** "ETA 2h 10m (7m 30s a step) · projected $338.50" for the tree's tooltip and the metrics view. */
export function describeForecast(f: Forecast): string {
  return `ETA ${formatDuration(f.remainingMs)} (${formatDuration(f.msPerStep)} a step)${f.projectedCost !== undefined ? ` · projected ${formatDollars(f.projectedCost)}` : ''}`;
}
