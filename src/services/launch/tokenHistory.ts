import type { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { describeJob, listJobs } from '../../aws/sagemaker';
import { tokensPerRolloutOf, type TokensPerRollout } from '../../core/jobs/estimate';
import { parseBaseModelArn } from '../../core/jobs/models';
import type { JobCategory } from '../../core/jobs/status';

/** Completed jobs looked at, newest first: enough for a spread, few enough to stay quick. */
const RECENT_JOBS = 10;

/** Per-rollout token averages of the user's recent completed jobs of the same category and model. */
export async function ownTokenAverages(
  sagemaker: SageMakerClient,
  category: JobCategory,
  modelId: string | undefined,
  signal?: AbortSignal,
): Promise<TokensPerRollout[]> {
  if (!modelId) return [];
  const names: string[] = [];
  for await (const j of listJobs(
    sagemaker,
    { JobCategory: category, StatusEquals: 'Completed', SortBy: 'CreationTime', SortOrder: 'Descending' },
    signal,
  )) {
    if (j.JobName) names.push(j.JobName);
    if (names.length >= RECENT_JOBS) break;
  }
  const described = await Promise.all(names.map((jobName) => describeJob(sagemaker, { jobName, category }, signal).catch(() => undefined)));
  return described.flatMap((job) => {
    const config = job?.config;
    const base = category === 'AgentRFT' ? config?.TrainingConfig?.BaseModelArn : config?.EvaluationConfig?.BaseModelArn;
    if (!job || !base || parseBaseModelArn(base)?.modelId !== modelId) return [];
    const rollouts = config?.ServiceOutput?.RolloutInfo;
    const average = tokensPerRolloutOf(
      config?.ServiceOutput?.BillableTokenUsage,
      rollouts?.Completed ?? rollouts?.Total,
      `job ${job.JobName}`,
    );
    return average ? [average] : [];
  });
}
