import { MTRL_QUOTAS, quotaRequest } from './quotas';
import type { JobCategory } from './status';

/** What a failed job's reason means and how to fix it, for the reasons users actually meet. */
export interface Diagnosis {
  /** Short name of the problem, shown on the tree node. */
  title: string;
  /** What happened and what to do, one or two sentences. */
  fix: string;
  /** The service's reason, verbatim. */
  reason: string;
  known: boolean;
}

interface KnownReason {
  pattern: RegExp;
  title: string;
  fix: string;
}

const KNOWN: KnownReason[] = [
  {
    pattern: /number of prompts must be greater than the batch size/i,
    title: 'Training file too small for the batch',
    fix: 'The training file needs more rows than global_batch_size. Add rows, or lower global_batch_size below the row count, and launch again ("MTRL: Validate Dataset" checks it before you pay).',
  },
  {
    pattern: /could not assume role/i,
    title: 'Job role not trusted',
    fix: 'The job role must trust job.sagemaker.amazonaws.com (not sagemaker.amazonaws.com) with both sts:AssumeRole and sts:TagSession; fix its trust policy and launch again.',
  },
  {
    pattern: /no sampling requests were received/i,
    title: 'Agent never called the policy model',
    fix: 'The agent returned without calling the model through the Job Runtime endpoint. Check RFT_RUNTIME_ENDPOINT and credentials in the agent, and make it return a reward for every rollout instead of raising.',
  },
  {
    pattern: /agent signaled that the trajectory failed/i,
    title: 'Agent reported a failed rollout',
    fix: 'One failed rollout cancels the whole job. Catch errors in the agent and return a reward (the lowest your task gives) instead of raising or returning {"status": "error"}.',
  },
  {
    pattern: /no reward was received in time/i,
    title: 'Rollout ran out of time',
    fix: "A rollout finished without reporting a reward before rollout_timeout. Keep the agent's ROLLOUT_BUDGET_SECONDS (default 420) below rollout_timeout (default 600) and return a reward when the budget runs out.",
  },
  {
    pattern: /access ?denied|not authorized/i,
    title: 'Access denied',
    fix: 'Either the account is not enabled for Agent RFT jobs (ask AWS for access) or the caller lacks AmazonSageMakerJobFullAccess; the job role needs AmazonSageMakerJobFullAccess too.',
  },
  {
    pattern: /max ?runtime ?exceeded|MaxRuntimeInSeconds/i,
    title: 'Maximum runtime exceeded',
    fix: 'The job hit StoppingCondition.MaxRuntimeInSeconds. Raise it, or lower max_steps / the dataset size so the job fits.',
  },
];

/** A refusal for the account's MTRL concurrency quota (0 on a new account, or every allowed job already running). */
const QUOTA_REASON = /ResourceLimitExceeded|account-level service limit|service quota|L-A9CEE0B1|L-2633C043/i;

/** The quota diagnosis: which quota, and the request that lifts it (the pre-flight's quota line says the same). */
export function quotaDiagnosis(reason: string, job?: { category: JobCategory; region: string }): Diagnosis {
  const fix = job
    ? `The account's quota ${MTRL_QUOTAS[job.category].code} (${MTRL_QUOTAS[job.category].what}) in ${job.region} is 0 or already used up. ${quotaRequest(job.category, job.region)}`
    : `The account's MTRL quota (${MTRL_QUOTAS.AgentRFT.code} training, ${MTRL_QUOTAS.AgentRFTEvaluation.code} evaluation) is 0 or already used up. Request an increase in the Service Quotas console (Amazon SageMaker).`;
  return { title: 'MTRL quota reached', fix, reason, known: true };
}

/** Diagnosis of a failure reason (and the secondary status, for MaxRuntimeExceeded); unknown reasons come back verbatim. */
export function diagnoseFailure(
  reason: string | undefined,
  secondaryStatus?: string,
  job?: { category: JobCategory; region: string },
): Diagnosis | undefined {
  const text = reason?.trim() ?? '';
  const probe = secondaryStatus === 'MaxRuntimeExceeded' ? `${text} MaxRuntimeExceeded` : text;
  if (!probe.trim()) return undefined;
  if (QUOTA_REASON.test(text)) return quotaDiagnosis(text, job);
  const known = KNOWN.find((k) => k.pattern.test(probe));
  if (known) return { title: known.title, fix: known.fix, reason: text || 'MaxRuntimeExceeded', known: true };
  return { title: text, fix: '', reason: text, known: false };
}
