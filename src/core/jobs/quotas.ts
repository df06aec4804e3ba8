import type { CheckResult } from './preflight';
import type { JobCategory } from './status';

/** Service Quotas' code of the service that holds the MTRL quotas. */
export const QUOTA_SERVICE_CODE = 'sagemaker';

/** The MTRL concurrency quotas: a new account may start at 0, and CreateJob then fails. */
export const MTRL_QUOTAS: Record<JobCategory, { code: string; what: string }> = {
  AgentRFT: { code: 'L-A9CEE0B1', what: 'concurrent MTRL training jobs' },
  AgentRFTEvaluation: { code: 'L-2633C043', what: 'concurrent MTRL evaluation jobs' },
};

/** What reading a quota gave: its value, or why it was not read (denied, throttled, not listed). */
export type QuotaReading = { value: number | undefined } | { notChecked: string };

/** The request that lifts a quota, in the console's words and as the one AWS CLI command. */
export function quotaRequest(category: JobCategory, region: string): string {
  const { code } = MTRL_QUOTAS[category];
  return (
    `Request an increase to 1 or more in the Service Quotas console (Amazon SageMaker, quota ${code}, region ${region}), or run ` +
    `\`aws service-quotas request-service-quota-increase --service-code ${QUOTA_SERVICE_CODE} --quota-code ${code} --desired-value 1 --region ${region}\`.`
  );
}

/** The quota line of the pre-flight: a 0 blocks (CreateJob would fail) and names the request; an unread quota is said, never an error. */
export function checkQuota(category: JobCategory, region: string, reading: QuotaReading): CheckResult {
  const { code, what } = MTRL_QUOTAS[category];
  const key = 'JobCategory';
  if ('notChecked' in reading)
    return { check: 'quota', level: 'pass', message: `Quota ${code} (${what}) not checked (${reading.notChecked}).`, key };
  if (reading.value === undefined)
    return { check: 'quota', level: 'pass', message: `Quota ${code} (${what}) not checked (Service Quotas gave no value).`, key };
  if (reading.value < 1)
    return {
      check: 'quota',
      level: 'fail',
      message: `The account's quota ${code} (${what}) is ${reading.value} in ${region}: CreateJob would fail.`,
      fix: quotaRequest(category, region),
      key,
    };
  return { check: 'quota', level: 'pass', message: `Quota ${code} allows ${reading.value} ${what} in ${region}.`, key };
}
