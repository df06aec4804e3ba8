import type {
  CreateJobCommandInput,
  DescribeJobCommandOutput,
  JobSummary,
  ListJobsCommandInput,
  SageMakerClient,
} from '@aws-sdk/client-sagemaker';
import { sdk } from './sdkLoader';

import type { JobDetails, JobDocument } from '../core/jobs/summary';

export type JobCategory = 'AgentRFT' | 'AgentRFTEvaluation';

/** What the service adds to the config document of a running or finished job (every field may be absent early). */
export interface ServiceOutput {
  OutputModelPackageArn?: string;
  MlflowDetails?: { ExperimentName?: string; RunName?: string; ExperimentId?: string; RunId?: string };
  BillableTokenUsage?: { TrainTokenCount?: number; PrefillTokenCount?: number; SampleTokenCount?: number };
  ProgressInfo?: { MaxEpoch?: number; StepsPerEpoch?: number; CurrentEpoch?: number; CurrentStep?: number; MaxSteps?: number };
  RolloutInfo?: { Total?: number; Completed?: number };
  EvaluationMetrics?: Record<string, unknown>;
}

/** The parts of a JobConfigDocument the extension reads; the rest is kept as-is. */
export interface JobConfigDocument {
  AgentConfig?: {
    BedrockAgentCoreConfig?: { AgentRuntimeArn?: string; Qualifier?: string };
    CustomAgentLambdaConfig?: { LambdaArn?: string };
  };
  InputDataConfig?: { ChannelName?: string; DataSource?: { S3DataSource?: { S3DataType?: string; S3Uri?: string }; DatasetSource?: { DatasetArn?: string } } }[];
  OutputDataConfig?: { S3OutputPath?: string; MlflowConfig?: Record<string, string> };
  TrainingConfig?: { BaseModelArn?: string; HyperParameters?: Record<string, string>; MlflowConfig?: Record<string, string>; AcceptEula?: boolean };
  EvaluationConfig?: { BaseModelArn?: string; HyperParameters?: Record<string, string>; AcceptEula?: boolean };
  ServiceOutput?: ServiceOutput;
  [key: string]: unknown;
}

/** DescribeJob's answer with the config document parsed (`config` is undefined when the document is absent or not JSON). */
export type JobDescription = Omit<DescribeJobCommandOutput, '$metadata'> & { config?: JobConfigDocument };

export interface JobRef {
  jobName: string;
  category: JobCategory;
}

/** Every job of a category, page after page (ListJobs' NextToken), in the order the service sorts them. */
export async function* listJobs(client: SageMakerClient, input: Omit<ListJobsCommandInput, 'NextToken'>, signal?: AbortSignal): AsyncIterable<JobSummary> {
  let token: string | undefined;
  do {
    const page = await client.send(new (sdk().ListJobsCommand)({ ...input, NextToken: token }), { abortSignal: signal });
    yield* page.JobSummaries ?? [];
    token = page.NextToken;
  } while (token);
}

export async function describeJob(client: SageMakerClient, job: JobRef, signal?: AbortSignal): Promise<JobDescription> {
  const { $metadata, ...out } = await client.send(new (sdk().DescribeJobCommand)({ JobName: job.jobName, JobCategory: job.category }), { abortSignal: signal });
  void $metadata;
  return { ...out, config: parseConfigDocument(out.JobConfigDocument) };
}

/** DescribeJob in the job model's words (what the tree, the metrics view and the CLI read). */
export async function describeJobDetails(client: SageMakerClient, job: JobRef, region: string, signal?: AbortSignal): Promise<JobDetails> {
  const d = await describeJob(client, job, signal);
  return {
    name: d.JobName ?? job.jobName,
    arn: d.JobArn ?? '',
    category: (d.JobCategory as JobCategory | undefined) ?? job.category,
    region,
    status: d.JobStatus ?? 'Unknown',
    secondaryStatus: d.SecondaryStatus,
    created: d.CreationTime ?? new Date(0),
    modified: d.LastModifiedTime,
    ended: d.EndTime,
    roleArn: d.RoleArn,
    failureReason: d.FailureReason,
    transitions: d.SecondaryStatusTransitions ?? [],
    document: d.config as JobDocument | undefined,
  };
}

/** The document as an object, or undefined when it is missing or not a JSON object. */
export function parseConfigDocument(text: string | undefined): JobConfigDocument | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as JobConfigDocument) : undefined;
  } catch {
    return undefined;
  }
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
  let token: string | undefined;
  do {
    const page = await client.send(new (sdk().ListJobSchemaVersionsCommand)({ JobCategory: category, NextToken: token }), { abortSignal: signal });
    for (const s of page.JobConfigSchemas ?? []) if (s.JobConfigSchemaVersion) versions.push(s.JobConfigSchemaVersion);
    token = page.NextToken;
  } while (token);
  return versions;
}

export interface JobSchema {
  category: JobCategory;
  version: string;
  /** The JSON Schema the config document must satisfy, parsed. */
  schema: Record<string, unknown>;
}

/** The JSON Schema of a category's config document (the latest version when `version` is omitted). */
export async function describeJobSchemaVersion(client: SageMakerClient, category: JobCategory, version?: string, signal?: AbortSignal): Promise<JobSchema> {
  const out = await client.send(new (sdk().DescribeJobSchemaVersionCommand)({ JobCategory: category, JobConfigSchemaVersion: version }), { abortSignal: signal });
  return { category, version: out.JobConfigSchemaVersion ?? version ?? '', schema: JSON.parse(out.JobConfigSchema ?? '{}') as Record<string, unknown> };
}

/** A single-use sign-in URL of an MLflow app's UI (valid for `seconds`, 5–300). */
export async function createPresignedMlflowAppUrl(client: SageMakerClient, arn: string, seconds = 60, signal?: AbortSignal): Promise<string> {
  const out = await client.send(new (sdk().CreatePresignedMlflowAppUrlCommand)({ Arn: arn, ExpiresInSeconds: seconds }), { abortSignal: signal });
  return out.AuthorizedUrl ?? '';
}
