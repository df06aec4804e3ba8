import type { JobDetails } from '../jobs/job';
import { progressOf } from '../jobs/status';
import type { MetricPoint } from '../metrics/mlflow';
import { followsMetricRule, followsStepRule, METRIC_RULE, quotedValue, STEP_RULE } from '../numberRules';
import type { HealthInput } from './findings';

/** The points every check may read: a value or step that breaks its rule is left out, and the first such named. */
export function admittedSeries(series: Readonly<Record<string, readonly MetricPoint[]>>): {
  series: Record<string, MetricPoint[]>;
  refused?: string;
} {
  const admitted: Record<string, MetricPoint[]> = {};
  let count = 0;
  let first = '';
  for (const [key, points] of Object.entries(series)) {
    admitted[key] = points.filter((p) => {
      const rule = !followsMetricRule(p.value) ? METRIC_RULE : !followsStepRule(p.step) ? STEP_RULE : undefined;
      if (rule && !count++) first = `${key} at step ${quotedValue(p.step)} is ${quotedValue(p.value)}: ${rule}`;
      return !rule;
    });
  }
  if (!count) return { series: admitted };
  return {
    series: admitted,
    refused: `${count} metric point${count === 1 ? ' breaks its rule and was' : 's break their rules and were'} not read; the first: ${first}.`,
  };
}

/** What the checks need of a described job and its loaded histories; `running` only while it trains (not while it uploads). */
export function healthInputOf(job: JobDetails, series: Readonly<Record<string, readonly MetricPoint[]>>, now: number): HealthInput {
  const config = job.category === 'AgentRFT' ? job.document?.TrainingConfig : job.document?.EvaluationConfig;
  const training = job.secondaryStatus === undefined || job.secondaryStatus === 'Training';
  const { series: admitted, refused } = admittedSeries(series);
  return {
    category: job.category,
    series: admitted,
    ...(refused ? { refused } : {}),
    hyperParameters: config?.HyperParameters ?? {},
    running: job.status === 'InProgress' && training,
    totalSteps: progressOf(job.document?.ServiceOutput?.ProgressInfo)?.totalSteps,
    now,
  };
}
