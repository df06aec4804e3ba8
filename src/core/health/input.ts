import type { JobDetails } from '../jobs/job';
import { progressOf } from '../jobs/status';
import type { MetricPoint } from '../metrics/mlflow';
import type { HealthInput } from './findings';

/** What the checks need of a described job and its loaded histories; `running` only while it trains (not while it uploads). */
export function healthInputOf(job: JobDetails, series: Readonly<Record<string, readonly MetricPoint[]>>, now: number): HealthInput {
  const config = job.category === 'AgentRFT' ? job.document?.TrainingConfig : job.document?.EvaluationConfig;
  const training = job.secondaryStatus === undefined || job.secondaryStatus === 'Training';
  return {
    category: job.category,
    series,
    hyperParameters: config?.HyperParameters ?? {},
    running: job.status === 'InProgress' && training,
    totalSteps: progressOf(job.document?.ServiceOutput?.ProgressInfo)?.totalSteps,
    now,
  };
}
