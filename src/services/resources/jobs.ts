import type { AwsClients } from '../../aws/clients';
import { describeJobDetails, listJobs } from '../../aws/sagemaker';
import { JOB_CATEGORIES, type JobCategory } from '../../core/jobs/status';
import type { JobDetails } from '../../core/jobs/job';

const DESCRIBE_CONCURRENCY = 4;

/** Every job of both categories in the regions, described (the document says which resources a job uses). */
export async function loadJobs(aws: AwsClients, regions: readonly string[], signal?: AbortSignal): Promise<JobDetails[]> {
  return describeAll(aws, await summaries(aws, regions, undefined, signal), signal);
}

/** The jobs running now (in progress or stopping), described: asked afresh before every delete. */
export async function loadRunningJobs(aws: AwsClients, regions: readonly string[], signal?: AbortSignal): Promise<JobDetails[]> {
  const refs = [...(await summaries(aws, regions, 'InProgress', signal)), ...(await summaries(aws, regions, 'Stopping', signal))];
  return describeAll(aws, refs, signal);
}

interface Ref {
  region: string;
  category: JobCategory;
  name: string;
}

async function summaries(
  aws: AwsClients,
  regions: readonly string[],
  status: 'InProgress' | 'Stopping' | undefined,
  signal?: AbortSignal,
): Promise<Ref[]> {
  const refs: Ref[] = [];
  for (const region of regions) {
    for (const category of JOB_CATEGORIES) {
      for await (const s of listJobs(aws.sagemaker(region), { JobCategory: category, MaxResults: 100, StatusEquals: status }, signal)) {
        if (s.JobName) refs.push({ region, category, name: s.JobName });
      }
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
