import type { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { sdk } from '../../aws/sdkLoader';
import { describeJobDetails, deleteJob, stopJob } from '../../aws/sagemaker';
import type { JobCategory } from '../../core/jobs/status';
import type { JobDetails, JobSummary } from '../../core/jobs/summary';

export type JobsSortBy = 'CreationTime' | 'Name' | 'Status';

export interface JobsQuery {
  nameContains?: string;
  status?: string;
  sortBy: JobsSortBy;
  ascending: boolean;
}

export interface JobsPage {
  jobs: JobSummary[];
  nextToken?: string;
}

/** What the jobs tree needs from SageMaker: the tree model depends on this, not on the SDK, so tests can count calls. */
export interface JobsBackend {
  listPage(region: string, category: JobCategory, query: JobsQuery, nextToken: string | undefined, signal?: AbortSignal): Promise<JobsPage>;
  describe(region: string, category: JobCategory, jobName: string, signal?: AbortSignal): Promise<JobDetails>;
  stop(region: string, category: JobCategory, jobName: string): Promise<void>;
  delete(region: string, category: JobCategory, jobName: string): Promise<void>;
}

export const PAGE_SIZE = 50;

/** The backend over the real SDK (the AWS layer's wrappers; ListJobs directly because the tree keeps the page token itself). */
export function sageMakerJobsBackend(client: (region: string) => SageMakerClient): JobsBackend {
  return {
    async listPage(region, category, query, nextToken, signal) {
      const out = await client(region).send(
        new (sdk().ListJobsCommand)({
          JobCategory: category,
          MaxResults: PAGE_SIZE,
          NextToken: nextToken,
          NameContains: query.nameContains || undefined,
          StatusEquals: (query.status || undefined) as never,
          SortBy: query.sortBy as never,
          SortOrder: query.ascending ? 'Ascending' : 'Descending',
        }),
        { abortSignal: signal },
      );
      const jobs = (out.JobSummaries ?? []).map(
        (s): JobSummary => ({
          name: s.JobName ?? '',
          arn: s.JobArn ?? '',
          category: (s.JobCategory as JobCategory | undefined) ?? category,
          region,
          status: s.JobStatus ?? 'Unknown',
          secondaryStatus: s.JobSecondaryStatus,
          created: s.CreationTime ?? new Date(0),
          modified: s.LastModifiedTime,
          ended: s.EndTime,
        }),
      );
      return { jobs, nextToken: out.NextToken };
    },
    describe: (region, category, jobName, signal) => describeJobDetails(client(region), { jobName, category }, region, signal),
    stop: (region, category, jobName) => stopJob(client(region), { jobName, category }),
    delete: (region, category, jobName) => deleteJob(client(region), { jobName, category }),
  };
}
