import { diagnoseFailure, type Diagnosis } from './diagnosis';
import type { JobConfigDocument, JobModelConfig } from './document';
import { costOf, formatDollars, modelIdOf, type Cost, type PricingTable } from './pricing';
import { progressText, type JobCategory } from './status';
import { formatDuration, relativeTime, type StatusTransition } from './timeline';
import { forecastOf } from './forecast';

/** One row of ListJobs, in the tree's words. */
export interface JobSummary {
  name: string;
  arn: string;
  category: JobCategory;
  region: string;
  status: string;
  secondaryStatus?: string;
  created: Date;
  modified?: Date;
  ended?: Date;
}

/** DescribeJob, with the document parsed (undefined when it is not valid JSON). */
export interface JobDetails extends JobSummary {
  roleArn?: string;
  failureReason?: string;
  transitions: StatusTransition[];
  document?: JobConfigDocument;
}

export function modelConfigOf(document: JobConfigDocument | undefined): JobModelConfig | undefined {
  return document?.TrainingConfig ?? document?.EvaluationConfig;
}

export function jobModelId(job: JobDetails): string | undefined {
  return modelIdOf(modelConfigOf(job.document)?.BaseModelArn);
}

export function jobCost(job: JobDetails, pricing: PricingTable): Cost | undefined {
  const model = jobModelId(job);
  return costOf(job.document?.ServiceOutput?.BillableTokenUsage, model ? pricing[model] : undefined);
}

export function jobDiagnosis(job: JobSummary & { failureReason?: string }): Diagnosis | undefined {
  if (job.status !== 'Failed' && job.secondaryStatus !== 'MaxRuntimeExceeded') return undefined;
  return diagnoseFailure(job.failureReason, job.secondaryStatus);
}

/** The numeric metrics of an evaluation (`EvaluationMetrics`, shape unpublished: only flat name → number entries are read). */
export function evaluationMetricsOf(job: JobDetails): Array<[string, number]> {
  const metrics = job.document?.ServiceOutput?.EvaluationMetrics;
  if (!metrics || typeof metrics !== 'object' || Array.isArray(metrics)) return [];
  return Object.entries(metrics).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]));
}

/** "step 42/100 · $12.30 · 3h ago"; a failed job shows its diagnosis instead of the progress, a finished evaluation its pass@1. */
export function jobDescription(job: JobSummary | JobDetails, pricing: PricingTable, now: Date): string {
  const details = 'transitions' in job ? job : undefined;
  const parts: string[] = [];
  const diagnosis = details ? jobDiagnosis(details) : undefined;
  if (diagnosis) parts.push(diagnosis.known ? diagnosis.title : 'Failed');
  else if (details) {
    const output = details.document?.ServiceOutput;
    const progress = progressText(output?.ProgressInfo);
    const rollouts = output?.RolloutInfo;
    const passAt1 = evaluationMetricsOf(details).find(([name]) => /pass_at_1$/.test(name));
    if (passAt1) parts.push(`pass@1 ${passAt1[1].toFixed(2)}`);
    else if (progress) {
      parts.push(progress);
      const forecast = forecastOf(details, pricing, now);
      if (forecast) parts.push(`ETA ${formatDuration(forecast.remainingMs)}`);
    } else if (typeof rollouts?.Completed === 'number')
      parts.push(`rollouts ${rollouts.Completed}${rollouts.Total ? `/${rollouts.Total}` : ''}`);
    else if (job.secondaryStatus && job.status === 'InProgress') parts.push(job.secondaryStatus);
  } else if (job.secondaryStatus && job.status === 'InProgress') parts.push(job.secondaryStatus);
  const cost = details ? jobCost(details, pricing) : undefined;
  if (cost) parts.push(formatDollars(cost.total));
  parts.push(relativeTime(job.ended ?? job.created, now));
  return parts.join(' · ');
}
