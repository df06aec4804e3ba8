import type { AwsClients } from '../../aws/clients';
import type { Explain } from '../../aws/errors';
import { describeJobDetails, listJobs } from '../../aws/sagemaker';
import { HOLDING_STATUSES, JOB_CATEGORIES, type JobCategory } from '../../core/jobs/status';
import type { JobDetails } from '../../core/jobs/job';

const DESCRIBE_CONCURRENCY = 4;

/** A region whose jobs could not be listed, and why. */
export interface UnreadableRegion {
  region: string;
  reason: string;
}

/** The jobs of several regions: which regions were read, and the ones that could not be (a global resource is then not proven unused). */
export interface RegionJobs {
  jobs: JobDetails[];
  /** The regions whose jobs were read. */
  regions: string[];
  unreadable: UnreadableRegion[];
}

/** Every job of both categories in the regions, described (the document says which resources a job uses). */
export function loadJobs(aws: AwsClients, regions: readonly string[], explain: Explain, signal?: AbortSignal): Promise<RegionJobs> {
  return perRegion(regions, explain, signal, async (region) => describeAll(aws, await summaries(aws, region, undefined, signal), signal));
}

/** The jobs that hold their resources now (HOLDING_STATUSES), described: asked afresh before every delete, and by the runtime banner. */
export function loadRunningJobs(aws: AwsClients, regions: readonly string[], explain: Explain, signal?: AbortSignal): Promise<RegionJobs> {
  return perRegion(regions, explain, signal, async (region) => {
    const refs: Ref[] = [];
    for (const status of HOLDING_STATUSES) refs.push(...(await summaries(aws, region, status, signal)));
    return describeAll(aws, refs, signal);
  });
}

/** Reads each region; one that fails is named with its reason, unless every region failed (then the first error stands: nothing was read). */
async function perRegion(
  regions: readonly string[],
  explain: Explain,
  signal: AbortSignal | undefined,
  read: (region: string) => Promise<JobDetails[]>,
): Promise<RegionJobs> {
  const jobs: JobDetails[] = [];
  const unreadable: UnreadableRegion[] = [];
  let firstError: unknown;
  for (const region of regions) {
    try {
      // A loop, not push(...): a region's listing may hold more jobs than a call takes arguments.
      for (const job of await read(region)) jobs.push(job);
    } catch (error) {
      if (signal?.aborted) throw error;
      firstError ??= error;
      unreadable.push({ region, reason: explain(error, `Listing the jobs of ${region}`, region) });
    }
  }
  if (regions.length && unreadable.length === regions.length) throw firstError;
  return { jobs, regions: regions.filter((r) => !unreadable.some((u) => u.region === r)), unreadable };
}

interface Ref {
  region: string;
  category: JobCategory;
  name: string;
}

async function summaries(
  aws: AwsClients,
  region: string,
  status: (typeof HOLDING_STATUSES)[number] | undefined,
  signal?: AbortSignal,
): Promise<Ref[]> {
  const refs: Ref[] = [];
  for (const category of JOB_CATEGORIES) {
    for await (const s of listJobs(aws.sagemaker(region), { JobCategory: category, MaxResults: 100, StatusEquals: status }, signal)) {
      if (s.JobName) refs.push({ region, category, name: s.JobName });
    }
  }
  return refs;
}

async function describeAll(aws: AwsClients, refs: Ref[], signal?: AbortSignal): Promise<JobDetails[]> {
  const out: JobDetails[] = new Array(refs.length);
  let next = 0;
  const worker = async () => {
    while (next < refs.length) {
      const i = next++;
      const r = refs[i];
      out[i] = await describeJobDetails(aws.sagemaker(r.region), { jobName: r.name, category: r.category }, r.region, signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DESCRIBE_CONCURRENCY, refs.length) }, worker));
  return out;
}
