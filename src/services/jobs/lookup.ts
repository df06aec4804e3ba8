import type { JobSummary, ListJobsCommandInput } from '@aws-sdk/client-sagemaker';
import type { AwsClients } from '../../aws/clients';
import { describeJob, listJobs, stopJob, type JobDescription } from '../../aws/sagemaker';
import type { JobRef } from '../../core/jobs/reference';

// The features' door to SageMaker jobs: they name a region and a job, this layer picks the client.

/** Which jobs of a region to list (ListJobs' filters; pages are followed here). */
export type JobsFilter = Omit<ListJobsCommandInput, 'NextToken'>;

/** Every job of a region that matches the filter, page after page. */
export function jobsIn(aws: AwsClients, region: string, filter: JobsFilter, signal?: AbortSignal): AsyncIterable<JobSummary> {
  return listJobs(aws.sagemaker(region), filter, signal);
}

/** A job's description with its config document parsed. */
export function describeJobIn(aws: AwsClients, job: Required<JobRef>, signal?: AbortSignal): Promise<JobDescription> {
  return describeJob(aws.sagemaker(job.region), job, signal);
}

export function stopJobIn(aws: AwsClients, job: Required<JobRef>, signal?: AbortSignal): Promise<void> {
  return stopJob(aws.sagemaker(job.region), job, signal);
}
