import type { AwsClients } from '../aws/clients';
import { describeJob } from '../aws/sagemaker';
import { deltasAgainst, evaluationResult, type Delta, type EvaluationResult } from '../core/evaluation/compare';
import { costOf, modelIdOf, type BillableTokenUsage, type PricingTable } from '../core/jobs/pricing';

export interface Comparison {
  results: EvaluationResult[];
  /** Jobs that could not be compared, with why. */
  skipped: { job: string; reason: string }[];
}

interface EvaluationDocument {
  EvaluationConfig?: { BaseModelArn?: string };
  ServiceOutput?: { EvaluationMetrics?: Record<string, unknown>; BillableTokenUsage?: BillableTokenUsage };
}

const CONCURRENCY = 4;

/** Reads completed evaluation jobs (DescribeJob, a few at a time) and turns their metrics into results with intervals, tokens and cost. */
export async function comparisonFromJobs(aws: AwsClients, region: string | undefined, jobs: readonly string[], pricing: PricingTable, signal?: AbortSignal): Promise<Comparison> {
  const client = aws.sagemaker(region);
  const found: (EvaluationResult | { job: string; reason: string })[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      const job = jobs[index];
      let details;
      try {
        details = await describeJob(client, { jobName: job, category: 'AgentRFTEvaluation' }, signal);
      } catch (error) {
        if ((error as Error).name !== 'ResourceNotFound' && (error as Error).name !== 'ResourceNotFoundException') throw error;
        found[index] = { job, reason: `there is no evaluation job of that name in ${region ?? 'the region'}` };
        continue;
      }
      const doc = details.config as EvaluationDocument | undefined;
      const metrics = Object.fromEntries(Object.entries(doc?.ServiceOutput?.EvaluationMetrics ?? {}).filter((e): e is [string, number] => typeof e[1] === 'number'));
      const usage = doc?.ServiceOutput?.BillableTokenUsage;
      const tokens = usage ? (usage.PrefillTokenCount ?? 0) + (usage.SampleTokenCount ?? 0) + (usage.TrainTokenCount ?? 0) : undefined;
      const cost = costOf(usage, pricing[modelIdOf(doc?.EvaluationConfig?.BaseModelArn) ?? ''])?.total;
      const result = details.JobStatus === 'Completed' ? evaluationResult(job, metrics, { tokens, cost }) : undefined;
      found[index] = result ?? { job, reason: details.JobStatus === 'Completed' ? 'it has no eval/reward/pass_at_1 and rollout count' : `it is ${details.JobStatus}, not Completed` };
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, worker));
  return {
    results: found.filter((r): r is EvaluationResult => 'passAt1' in r),
    skipped: found.filter((r): r is { job: string; reason: string } => !('passAt1' in r)),
  };
}

/** Deltas against the named baseline, else against the first result. */
export function comparisonDeltas(comparison: Comparison, baseline?: string): Delta[] {
  const base = baseline ? comparison.results.find((r) => r.job === baseline) : comparison.results[0];
  return base ? deltasAgainst(base, comparison.results) : [];
}
