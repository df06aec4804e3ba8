import type { AwsClients } from '../aws/clients';
import { describeJob } from '../aws/sagemaker';
import { deltasAgainst, evaluationResult, type Delta, type EvaluationResult } from '../core/evaluation/compare';
import { comparisonGrid, rowLabels, settingsOf, type ComparisonGrid } from '../core/evaluation/grid';
import type { JobConfigDocument } from '../core/jobs/document';
import { costOf, modelIdOf, type PricingTable } from '../core/jobs/pricing';
import { evaluationNumbers } from './evaluationMetrics';

interface Comparison {
  results: EvaluationResult[];
  /** Where each compared job's numbers were read: its MLflow run, else ServiceOutput.EvaluationMetrics. */
  sources: Map<string, string>;
  /** Where each compared job sits: its settings (runtime and decoding) and its model (base, or the adapter's package). */
  placement: Map<string, { settings: Record<string, string>; model: string }>;
  /** Jobs that could not be compared, with why. */
  skipped: { job: string; reason: string }[];
}

const CONCURRENCY = 4;

/** Reads completed evaluation jobs (DescribeJob, a few at a time) and turns their metrics into results with intervals, tokens and cost. */
export async function comparisonFromJobs(
  aws: AwsClients,
  region: string | undefined,
  jobs: readonly string[],
  pricing: PricingTable,
  signal?: AbortSignal,
): Promise<Comparison> {
  const client = aws.sagemaker(region);
  const found: (EvaluationResult | { job: string; reason: string })[] = new Array(jobs.length);
  const placement: Comparison['placement'] = new Map();
  const sources: Comparison['sources'] = new Map();
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
      const doc = details.config as JobConfigDocument | undefined;
      const completed = details.JobStatus === 'Completed';
      const numbers = completed ? await evaluationNumbers(aws, job, doc, signal) : undefined;
      const metrics = numbers?.metrics ?? {};
      if (numbers?.source) sources.set(job, numbers.source);
      const usage = doc?.ServiceOutput?.BillableTokenUsage;
      const tokens = usage ? (usage.PrefillTokenCount ?? 0) + (usage.SampleTokenCount ?? 0) + (usage.TrainTokenCount ?? 0) : undefined;
      const cost = costOf(usage, pricing[modelIdOf(doc?.EvaluationConfig?.BaseModelArn) ?? ''])?.total;
      const runtime = doc?.AgentConfig?.BedrockAgentCoreConfig?.AgentRuntimeArn?.split('runtime/')[1];
      const adapter = doc?.ModelPackageConfig?.InputModelPackageArn?.split('model-package/')[1];
      placement.set(job, {
        settings: settingsOf(doc?.EvaluationConfig?.HyperParameters ?? {}, runtime),
        model: adapter ? `adapter ${adapter}` : 'base model',
      });
      const result = completed ? evaluationResult(job, metrics, { tokens, cost }) : undefined;
      found[index] = result ?? {
        job,
        reason: !completed
          ? `it is ${details.JobStatus}, not Completed`
          : numbers?.source
            ? `${numbers.source} has no eval/reward/pass_at_1 and rollout count`
            : (numbers?.mlflowProblem ?? 'it has no metrics'),
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, worker));
  return {
    placement,
    sources,
    results: found.filter((r): r is EvaluationResult => 'passAt1' in r),
    skipped: found.filter((r): r is { job: string; reason: string } => !('passAt1' in r)),
  };
}

/** Deltas against the named baseline, else against the first result. */
export function comparisonDeltas(comparison: Comparison, baseline?: string): Delta[] {
  const base = baseline ? comparison.results.find((r) => r.job === baseline) : comparison.results[0];
  return base ? deltasAgainst(base, comparison.results) : [];
}

/** Any selection of evaluations as a grid: rows by the settings that differ among them, columns by model. */
export function gridOf(comparison: Comparison, baseline?: string): ComparisonGrid {
  const placed = comparison.results.map((result) => ({
    result,
    at: comparison.placement.get(result.job) ?? { settings: {}, model: result.job },
  }));
  const labels = rowLabels(placed.map((p) => p.at.settings));
  return comparisonGrid(
    placed.map((p, i) => ({ row: labels[i], column: p.at.model, result: p.result })),
    baseline,
  );
}
