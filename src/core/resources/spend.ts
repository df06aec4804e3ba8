import type { Cost, PricingTable } from '../jobs/pricing';
import { isInProgress } from '../jobs/status';
import { jobCost } from '../jobs/summary';
import type { JobDetails } from '../jobs/job';

/** What S3 Standard storage costs a month in us-east-1, dollars per GB: the keeping cost shown for S3 prefixes. */
const S3_STANDARD_DOLLARS_PER_GB_MONTH = 0.023;

export function s3MonthlyCost(bytes: number): number {
  return (bytes / 1024 ** 3) * S3_STANDARD_DOLLARS_PER_GB_MONTH;
}

interface JobSpend {
  job: JobDetails;
  /** Undefined when the job reports no tokens yet or its model has no price in `mtrl.pricing`. */
  cost?: Cost;
}

export interface Spend {
  /** Token spend of the jobs that ran this calendar month (UTC), each counted whole. */
  monthToDate: number;
  jobs: JobSpend[];
  /** Jobs whose model has no price: their tokens are not in the totals. */
  unpriced: string[];
}

const monthStart = (now: Date) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);

/** Token spend per job and month to date: BillableTokenUsage × the pricing table (AgentCore compute is billed apart and not visible here). */
export function spendOf(jobs: readonly JobDetails[], pricing: PricingTable, now: Date): Spend {
  const start = monthStart(now);
  let monthToDate = 0;
  const unpriced: string[] = [];
  const rows = jobs.map((job) => {
    const cost = jobCost(job, pricing);
    if (!cost && job.document?.ServiceOutput?.BillableTokenUsage) unpriced.push(job.name);
    const last = isInProgress(job.status) ? now.getTime() : (job.ended ?? job.modified ?? job.created).getTime();
    if (cost && last >= start) monthToDate += cost.total;
    return { job, cost };
  });
  return { monthToDate, jobs: rows, unpriced };
}
