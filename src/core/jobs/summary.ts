import { diagnoseFailure, type Diagnosis } from './diagnosis';
import type { JobConfigDocument, JobModelConfig } from './document';
import { costOf, formatDollars, modelIdOf, type Cost, type PricingTable } from './pricing';
import { progressOf } from './status';
import type { JobDetails, JobSummary } from './job';
import { formatDuration, relativeTime } from './timeline';
import { forecastOf } from './forecast';
import { statusNotes, statusNoteTexts } from './statusNotes';

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
  return diagnoseFailure(job.failureReason, job.secondaryStatus, job);
}

/** The numeric metrics of an evaluation (`EvaluationMetrics`, shape unpublished: only flat name → number entries are read). */
export function evaluationMetricsOf(job: JobDetails): Array<[string, number]> {
  const metrics = job.document?.ServiceOutput?.EvaluationMetrics;
  if (!metrics || typeof metrics !== 'object' || Array.isArray(metrics)) return [];
  return Object.entries(metrics).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]));
}

/** One fact of a job's row: as the row shows it, and as a screen reader says it when that differs. */
export interface JobFact {
  text: string;
  spoken?: string;
}

/**
 * A job's facts, most important first, so a narrow sidebar cuts the least important: a failed job's diagnosis, a
 * finished evaluation's pass@1, else progress (`42/100`, spoken "step 42/100"), then the cost, a running job's ETA, the age.
 */
export function jobFacts(job: JobSummary | JobDetails, pricing: PricingTable, now: Date): JobFact[] {
  const details = 'transitions' in job ? job : undefined;
  const facts: JobFact[] = [];
  const diagnosis = details ? jobDiagnosis(details) : undefined;
  let eta: string | undefined;
  const notes = details ? statusNotes(details.transitions, details.status, now) : undefined;
  if (diagnosis) facts.push({ text: diagnosis.known ? diagnosis.title : 'Failed' });
  else if (details) {
    const output = details.document?.ServiceOutput;
    const progress = progressOf(output?.ProgressInfo);
    const rollouts = output?.RolloutInfo;
    const passAt1 = evaluationMetricsOf(details).find(([name]) => /pass_at_1$/.test(name));
    if (notes?.waitingMs !== undefined) facts.push({ text: statusNoteTexts({ ...notes, restarts: 0 })[0] });
    else if (passAt1) facts.push({ text: `pass@1 ${passAt1[1].toFixed(2)}` });
    else if (progress) {
      const steps = progress.totalSteps !== undefined ? `${progress.step}/${progress.totalSteps}` : `${progress.step}`;
      const phase = notes?.phase ? ` ${notes.phase}` : '';
      facts.push({ text: `${steps}${phase}`, spoken: `step ${steps}${phase}` });
      const forecast = forecastOf(details, pricing, now);
      if (forecast) eta = `ETA ${formatDuration(forecast.remainingMs)}`;
    } else if (typeof rollouts?.Completed === 'number') {
      const done = rollouts.Total ? Math.min(rollouts.Completed, rollouts.Total) : rollouts.Completed;
      facts.push({ text: `rollouts ${done}${rollouts.Total ? `/${rollouts.Total}` : ''}` });
    } else if (job.secondaryStatus && job.status === 'InProgress') facts.push({ text: job.secondaryStatus });
    if (notes?.restarts) facts.push({ text: statusNoteTexts({ restarts: notes.restarts })[0] });
  } else if (job.secondaryStatus && job.status === 'InProgress') facts.push({ text: job.secondaryStatus });
  const cost = details ? jobCost(details, pricing) : undefined;
  if (cost) facts.push({ text: formatDollars(cost.total) });
  if (eta) facts.push({ text: eta });
  facts.push({ text: relativeTime(job.ended ?? job.created, now) });
  return facts;
}

/** The row's description: "42/100 · $12.30 · ETA 2h 10m · 3h ago" (the tooltip has every detail). */
export function jobDescription(job: JobSummary | JobDetails, pricing: PricingTable, now: Date): string {
  return jobFacts(job, pricing, now)
    .map((f) => f.text)
    .join(' · ');
}
