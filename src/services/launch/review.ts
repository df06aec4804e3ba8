import {
  describeEvaluationArithmetic,
  describeTrainingArithmetic,
  evaluationArithmetic,
  trainingArithmetic,
} from '../../core/jobs/arithmetic';
import { resumeStepOf } from '../../core/jobs/checkpoint';
import { documentFacts, effectiveSettings, type DocumentFacts } from '../../core/jobs/document';
import type { EffectiveSetting, SettingSource } from '../../core/jobs/hyperparameters';
import { describeEstimate, estimateCost, type CostEstimate, type TokensPerRollout } from '../../core/jobs/estimate';
import type { JobFile } from '../../core/jobs/jobfile';
import { parseBaseModelArn } from '../../core/jobs/models';
import { verdict, type CheckLevel, type CheckResult } from '../../core/jobs/preflight';
import type { TokenPrices } from '../../core/jobs/pricing';
import { relativeTime } from '../../core/jobs/timeline';
import type { KeptSignalCheck } from '../../core/signal/checks';

/** Everything the review step shows before CreateJob. */
export interface Review {
  /** What the document says (model, runtime, datasets, hyperparameters), read once per launch. */
  facts: DocumentFacts;
  arithmetic: string[];
  /** Every setting the job runs with, and whether it comes from the file, the service's default or the SDK's. */
  settings: EffectiveSetting[];
  estimate?: CostEstimate;
  /** Why there is no estimate (no rows, or no price for the model). */
  estimateMissing?: string;
  checks: CheckResult[];
  verdict: CheckLevel;
  /** A training job's latest learning-signal check for its dataset and runtime; `check` absent: none is kept. */
  signal?: { check?: KeptSignalCheck };
}

export function buildReview(
  job: JobFile,
  checks: CheckResult[],
  rows: Record<string, number | undefined>,
  prices: TokenPrices | undefined,
  ownAverages: readonly TokensPerRollout[],
  facts: DocumentFacts = documentFacts(job.JobCategory, job.JobConfigDocument),
): Review {
  const modelId = facts.baseModelArn ? parseBaseModelArn(facts.baseModelArn)?.modelId : undefined;
  let arithmetic: string[];
  let rollouts: number | undefined;
  if (job.JobCategory === 'AgentRFT' && rows.train !== undefined) {
    const a = trainingArithmetic(rows.train, facts.hyperparameters, {
      validationRows: rows.validation,
      modelId,
      resumeFrom: resumeStepOf(job),
    });
    arithmetic = describeTrainingArithmetic(a);
    rollouts = a.totalRollouts;
  } else if (job.JobCategory === 'AgentRFTEvaluation' && rows.evaluation !== undefined) {
    const a = evaluationArithmetic(rows.evaluation, facts.hyperparameters);
    arithmetic = describeEvaluationArithmetic(a);
    rollouts = a.totalRollouts;
  } else {
    arithmetic = ['Rows unknown: the dataset could not be read, so steps and rollouts are not computed.'];
  }
  const settings = effectiveSettings(job.JobCategory, job.JobConfigDocument, facts);
  const review: Review = { facts, arithmetic, settings, checks, verdict: verdict(checks) };
  if (rollouts === undefined) review.estimateMissing = 'No cost estimate without the row count.';
  else if (!prices)
    review.estimateMissing = `No token prices for ${modelId ?? 'this model'}; add them to the mtrl.pricing setting for an estimate.`;
  else review.estimate = estimateCost(rollouts, ownAverages, prices, job.JobCategory);
  return review;
}

/** The latest signal check in one line: its zero-advantage share and when, or that there is none (or it runs, or failed). */
export function describeSignalCheck(check: KeptSignalCheck | undefined, now = new Date()): string {
  if (!check) return 'Learning signal: no check for this dataset and runtime yet.';
  const when = relativeTime(new Date(check.at), now);
  if (check.status === 'running') return `Learning signal: a check is running (${check.jobName ?? 'locally'}, started ${when}).`;
  if (check.status === 'failed' || !check.report) return `Learning signal: the check of ${when} failed: ${check.error ?? 'no report'}.`;
  const share = check.report.zeroAdvantage.share;
  const zero = share === null ? 'no task had two or more rollouts' : `${Math.round(share * 100)} % of tasks have zero advantage`;
  return `Learning signal: ${zero} (${check.rows} rows × ${check.groupSize} rollouts, checked ${when}).`;
}

const SOURCES: readonly SettingSource[] = ['your file', 'SDK default', 'service default'];

/** The settings in one line per source: "From your file: max_steps 10, …", then the SDK's and the service's defaults. */
export function describeSettings(settings: readonly EffectiveSetting[]): string[] {
  return SOURCES.flatMap((source) => {
    const here = settings.filter((s) => s.source === source);
    const label = source === 'your file' ? 'From your file' : `${source[0].toUpperCase()}${source.slice(1)}s`;
    return here.length ? [`${label}: ${here.map((s) => `${s.name} ${s.value}`).join(', ')}`] : [];
  });
}

export function describeReview(r: Review): string[] {
  return [
    ...r.arithmetic,
    ...describeSettings(r.settings),
    r.estimate ? `Cost: ${describeEstimate(r.estimate)}` : (r.estimateMissing ?? ''),
    ...(r.signal ? [describeSignalCheck(r.signal.check)] : []),
  ];
}
