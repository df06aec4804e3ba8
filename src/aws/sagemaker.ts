import type {
  CreateJobCommandInput,
  DescribeJobCommandOutput,
  HubContentInfo,
  JobSummary,
  ListJobsCommandInput,
  SageMakerClient,
} from '@aws-sdk/client-sagemaker';
import { parseConfigDocument, type JobConfigDocument } from '../core/jobs/document';
import type { JobRef } from '../core/jobs/reference';
import { isJobCategory, type JobCategory } from '../core/jobs/status';
import type { JobDetails, JobSummary as ModelJobSummary } from '../core/jobs/job';
import { sdk } from './sdkLoader';
import { notificationRouteOf } from '../core/jobs/notifications';
import { paginateItems } from './paginate';

/** DescribeJob's answer with the config document parsed (`config` is undefined when the document is absent or not JSON). */
export type JobDescription = Omit<DescribeJobCommandOutput, '$metadata'> & { config?: JobConfigDocument };

/** One page of ListJobs and the token of the next (undefined after the last): for views that keep the token themselves. */
export async function listJobsPage(
  client: SageMakerClient,
  input: ListJobsCommandInput,
  signal?: AbortSignal,
): Promise<{ jobs: JobSummary[]; nextToken?: string }> {
  const page = await client.send(new (sdk().ListJobsCommand)(input), { abortSignal: signal });
  return { jobs: page.JobSummaries ?? [], nextToken: page.NextToken };
}

/** Every job of a category, page after page (ListJobs' NextToken), in the order the service sorts them. */
export async function* listJobs(
  client: SageMakerClient,
  input: Omit<ListJobsCommandInput, 'NextToken'>,
  signal?: AbortSignal,
): AsyncIterable<JobSummary> {
  yield* paginateItems(
    async (token, pageSignal) => {
      const page = await client.send(new (sdk().ListJobsCommand)({ ...input, NextToken: token }), { abortSignal: pageSignal });
      return { items: page.JobSummaries ?? [], next: page.NextToken };
    },
    { what: `SageMaker ListJobs (${input.JobCategory})`, signal },
  );
}

export async function describeJob(client: SageMakerClient, job: JobRef, signal?: AbortSignal): Promise<JobDescription> {
  const { $metadata, ...out } = await client.send(new (sdk().DescribeJobCommand)({ JobName: job.jobName, JobCategory: job.category }), {
    abortSignal: signal,
  });
  void $metadata;
  return { ...out, config: parseConfigDocument(out.JobConfigDocument) };
}

type SharedJobFields = 'JobName' | 'JobArn' | 'JobCategory' | 'JobStatus' | 'CreationTime' | 'LastModifiedTime' | 'EndTime';

/** What ListJobs and DescribeJob both say of a job, in the job model's words; name and category fall back to the job asked for. */
export function jobSummaryOf(
  s: Pick<JobDescription, SharedJobFields>,
  secondaryStatus: string | undefined,
  job: JobRef,
  region: string,
): ModelJobSummary {
  return {
    name: s.JobName ?? job.jobName,
    arn: s.JobArn ?? '',
    category: isJobCategory(s.JobCategory) ? s.JobCategory : job.category,
    region,
    status: s.JobStatus ?? 'Unknown',
    secondaryStatus,
    created: s.CreationTime ?? new Date(0),
    modified: s.LastModifiedTime,
    ended: s.EndTime,
  };
}

/** DescribeJob in the job model's words (what the tree, the metrics view and the CLI read). */
export async function describeJobDetails(client: SageMakerClient, job: JobRef, region: string, signal?: AbortSignal): Promise<JobDetails> {
  const d = await describeJob(client, job, signal);
  return {
    ...jobSummaryOf(d, d.SecondaryStatus, job, region),
    roleArn: d.RoleArn,
    failureReason: d.FailureReason,
    transitions: d.SecondaryStatusTransitions ?? [],
    document: d.config,
    notifications: notificationRouteOf(d.Tags),
  };
}

/** Creates the job and returns its ARN. */
export async function createJob(client: SageMakerClient, input: CreateJobCommandInput, signal?: AbortSignal): Promise<string> {
  const out = await client.send(new (sdk().CreateJobCommand)(input), { abortSignal: signal });
  return out.JobArn ?? '';
}

export async function stopJob(client: SageMakerClient, job: JobRef, signal?: AbortSignal): Promise<void> {
  await client.send(new (sdk().StopJobCommand)({ JobName: job.jobName, JobCategory: job.category }), { abortSignal: signal });
}

/** Deletes a stopped or finished job (the service answers ResourceInUse for a running one). */
export async function deleteJob(client: SageMakerClient, job: JobRef, signal?: AbortSignal): Promise<void> {
  await client.send(new (sdk().DeleteJobCommand)({ JobName: job.jobName, JobCategory: job.category }), { abortSignal: signal });
}

/** Schema versions the service accepts for a category, e.g. ["1.0.0"]. */
export async function listJobSchemaVersions(client: SageMakerClient, category: JobCategory, signal?: AbortSignal): Promise<string[]> {
  const versions: string[] = [];
  const schemas = paginateItems(
    async (token, pageSignal) => {
      const page = await client.send(new (sdk().ListJobSchemaVersionsCommand)({ JobCategory: category, NextToken: token }), {
        abortSignal: pageSignal,
      });
      return { items: page.JobConfigSchemas ?? [], next: page.NextToken };
    },
    { what: `SageMaker ListJobSchemaVersions (${category})`, signal },
  );
  for await (const s of schemas) if (s.JobConfigSchemaVersion) versions.push(s.JobConfigSchemaVersion);
  return versions;
}

interface JobSchema {
  category: JobCategory;
  version: string;
  /** The JSON Schema the config document must satisfy, parsed. */
  schema: Record<string, unknown>;
}

/** The JSON Schema of a category's config document (the latest version when `version` is omitted). */
export async function describeJobSchemaVersion(
  client: SageMakerClient,
  category: JobCategory,
  version?: string,
  signal?: AbortSignal,
): Promise<JobSchema> {
  const out = await client.send(new (sdk().DescribeJobSchemaVersionCommand)({ JobCategory: category, JobConfigSchemaVersion: version }), {
    abortSignal: signal,
  });
  return {
    category,
    version: out.JobConfigSchemaVersion ?? version ?? '',
    schema: JSON.parse(out.JobConfigSchema ?? '{}') as Record<string, unknown>,
  };
}

/** A single-use sign-in URL of an MLflow app's UI (valid for `seconds`, 5–300). */
export async function createPresignedMlflowAppUrl(
  client: SageMakerClient,
  arn: string,
  seconds = 60,
  signal?: AbortSignal,
): Promise<string> {
  const out = await client.send(new (sdk().CreatePresignedMlflowAppUrlCommand)({ Arn: arn, ExpiresInSeconds: seconds }), {
    abortSignal: signal,
  });
  return out.AuthorizedUrl ?? '';
}

/** Every model of a SageMaker hub (`SageMakerPublicHub` holds the MTRL recipes), page after page. */
export async function listHubModels(client: SageMakerClient, hubName: string, signal?: AbortSignal): Promise<HubContentInfo[]> {
  const models: HubContentInfo[] = [];
  const contents = paginateItems(
    async (token, pageSignal) => {
      const page = await client.send(
        new (sdk().ListHubContentsCommand)({ HubName: hubName, HubContentType: 'Model', NextToken: token, MaxResults: 100 }),
        { abortSignal: pageSignal },
      );
      return { items: page.HubContentSummaries ?? [], next: page.NextToken };
    },
    { what: `SageMaker ListHubContents of ${hubName}`, signal },
  );
  for await (const model of contents) models.push(model);
  return models;
}
