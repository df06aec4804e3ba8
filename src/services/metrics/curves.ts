import { describeForecast, forecastOf, msPerStepOf } from '../../core/jobs/forecast';
import type { PricingTable } from '../../core/jobs/pricing';
import { isInProgress } from '../../core/jobs/status';
import type { JobDetails } from '../../core/jobs/job';
import { droppedSentence } from '../../core/metrics/points';
import type { JobMetrics } from './load';
import type { JobCurves, MetricsJob } from '../../core/metrics/curves';
import type { HealthReport } from '../../core/health/findings';

/** Validation decodes greedily during training (the write-up: 37 % at temperature 0 vs 84 % evaluated at serving settings). */
function validationSettingsOf(job: JobDetails | undefined): string {
  const maxTokens = job?.document?.TrainingConfig?.HyperParameters?.sampling_max_tokens;
  return `Validation decodes at temperature 0 (greedy)${maxTokens ? `, sampling_max_tokens ${maxTokens}` : ''}. Evaluation at serving settings can differ a lot: the write-up's run validated at 37 % but evaluated at 84 %.`;
}

/** A loaded job as the page draws it, with the ETA from the MLflow step timestamps. */
export function curvesOf(ref: MetricsJob, m: JobMetrics, pricing: PricingTable, now: Date, health?: HealthReport): JobCurves {
  const series = Object.fromEntries(
    Object.entries(m.series).map(([key, points]) => [key, { steps: points.map((p) => p.step), values: points.map((p) => p.value) }]),
  );
  const rate = msPerStepOf(m.series['rollout/reward/mean'] ?? m.series['timing_s/step'] ?? []);
  const forecast = forecastOf(m.job, pricing, now, rate);
  return {
    job: ref,
    runId: m.runId,
    status: m.runStatus,
    running: isInProgress(m.job.status),
    keys: m.keys,
    series,
    forecast: forecast ? describeForecast(forecast) : undefined,
    validationSettings: ref.category === 'AgentRFT' ? validationSettingsOf(m.job) : undefined,
    findings: health?.findings.map(({ kind, severity, step, metric, sentence }) => ({ kind, severity, step, metric, sentence })),
    problem:
      m.keys.length === 0
        ? `The MLflow run ${m.runId} of ${ref.name} has no metrics yet: the first ones arrive when step 1 (validation: step 0) finishes. This view refreshes while the job runs.`
        : m.dropped
          ? `${droppedSentence(m.dropped)} MLflow sent them for ${ref.name}; the curves leave them out.`
          : undefined,
  };
}
