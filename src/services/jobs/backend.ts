import type { AwsClients } from '../../aws/clients';
import { deleteJob, describeJobDetails, jobSummaryOf, listJobsPage, stopJob } from '../../aws/sagemaker';
import type { JobCategory, JobStatus } from '../../core/jobs/status';
import type { JobDetails, JobSummary } from '../../core/jobs/job';

export type JobsSortBy = 'CreationTime' | 'Name' | 'Status';

export interface JobsQuery {
  nameContains?: string;
  status?: JobStatus;
  sortBy: JobsSortBy;
  ascending: boolean;
}

interface JobsPage {
  jobs: JobSummary[];
  nextToken?: string;
}

/** What a jobs view needs from SageMaker, page by page: views depend on this, not on the SDK, so tests can count calls. */
export interface JobsBackend {
  listPage(region: string, category: JobCategory, query: JobsQuery, nextToken: string | undefined, signal?: AbortSignal): Promise<JobsPage>;
  describe(region: string, category: JobCategory, jobName: string, signal?: AbortSignal): Promise<JobDetails>;
  stop(region: string, category: JobCategory, jobName: string): Promise<void>;
  delete(region: string, category: JobCategory, jobName: string): Promise<void>;
}

export const PAGE_SIZE = 50;

/** The backend over the AWS layer: one ListJobs page at a time (the caller keeps the token), DescribeJob in the tree's words. */
export function sageMakerJobsBackend(aws: Pick<AwsClients, 'sagemaker'>): JobsBackend {
  const client = (region: string) => aws.sagemaker(region);
  return {
    async listPage(region, category, query, nextToken, signal) {
      const page = await listJobsPage(
        client(region),
        {
          JobCategory: category,
          MaxResults: PAGE_SIZE,
          NextToken: nextToken,
          NameContains: query.nameContains || undefined,
          StatusEquals: query.status,
          SortBy: query.sortBy,
          SortOrder: query.ascending ? 'Ascending' : 'Descending',
        },
        signal,
      );
      const jobs = page.jobs.map((s) => jobSummaryOf(s, s.JobSecondaryStatus, { jobName: '', category }, region));
      return { jobs, nextToken: page.nextToken };
    },
    describe: (region, category, jobName, signal) => describeJobDetails(client(region), { jobName, category }, region, signal),
    stop: (region, category, jobName) => stopJob(client(region), { jobName, category }),
    delete: (region, category, jobName) => deleteJob(client(region), { jobName, category }),
  };
}
