import { readRows } from './datasets';
import type { JobConfigDocument } from '../core/jobs/document';
import { JOB_NAME_PATTERN, jobArnOf } from '../core/jobs/reference';
import { isJobCategory, type JobCategory } from '../core/jobs/status';
import { jobState, serviceOutput, type Job, type JobState } from './jobs';
import { MLFLOW_APP_OPERATIONS } from './mlflowApps';
import { planJob } from './plan';
import { ServiceError } from './protocol';
import { evaluationMetrics } from './rollouts';
import { SCHEMA_VERSION, SCHEMAS, validateDocument } from './schemas';
import { ACCOUNT, type World } from './world';

type Input = Record<string, unknown>;
const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/;
const seconds = (ms: number | undefined) => (ms === undefined ? undefined : ms / 1000);

function category(input: Input): JobCategory {
  const c = input.JobCategory;
  if (!isJobCategory(c))
    throw new ServiceError(
      'ValidationException',
      `1 validation error detected: Value '${String(c)}' at 'jobCategory' failed to satisfy constraint: Member must satisfy enum value set: [AgentRFT, AgentRFTEvaluation]`,
    );
  return c;
}

function findJob(world: World, input: Input, region: string): Job {
  const c = category(input);
  const job = world.jobs.get(world.jobKey(c, String(input.JobName ?? ''), region));
  if (!job || job.created > world.clock.now())
    throw new ServiceError('ResourceNotFound', `Job ${String(input.JobName)} of category ${c} does not exist.`);
  return job;
}

type Handler = (world: World, input: Input, region: string, host: string | undefined) => unknown;

/** The SageMaker operations the emulator answers (JSON 1.1, target `SageMaker.<Operation>`): the Jobs API and managed MLflow apps. */
const OPERATIONS: Record<string, Handler> = {
  CreateJob: (world, input, region) => createJob(world, input, region),
  DescribeJob: (world, input, region) => {
    const job = findJob(world, input, region);
    const now = world.clock.now();
    return describe(job, jobState(job, now), now);
  },
  ListJobs: (world, input, region) => listJobs(world, input, world.clock.now(), region),
  StopJob: (world, input, region) => {
    const job = findJob(world, input, region);
    const now = world.clock.now();
    const state = jobState(job, now);
    if (state.status === 'Stopping' || state.status === 'Stopped') return {};
    if (state.status !== 'InProgress')
      throw new ServiceError('ValidationException', `Job ${job.name} is ${state.status}; only an InProgress job can be stopped.`);
    job.stoppedAt = now;
    return {};
  },
  DeleteJob: (world, input, region) => {
    const c = category(input);
    const key = world.jobKey(c, String(input.JobName ?? ''), region);
    const job = world.jobs.get(key);
    if (!job) return {};
    const status = jobState(job, world.clock.now()).status;
    if (status === 'InProgress' || status === 'Stopping')
      throw new ServiceError('ResourceInUse', `Job ${job.name} is ${status}. Stop it and wait until it has stopped before deleting it.`);
    world.jobs.delete(key);
    return {};
  },
  ListJobSchemaVersions: (_world, input) => {
    category(input);
    return { JobConfigSchemas: [{ JobConfigSchemaVersion: SCHEMA_VERSION }] };
  },
  DescribeJobSchemaVersion: (_world, input) => {
    const c = category(input);
    const version = (input.JobConfigSchemaVersion as string | undefined) ?? SCHEMA_VERSION;
    if (version !== SCHEMA_VERSION)
      throw new ServiceError('ResourceNotFound', `Schema version ${version} does not exist for ${c}. Available: ${SCHEMA_VERSION}.`);
    return { JobCategory: c, JobConfigSchemaVersion: version, JobConfigSchema: JSON.stringify(SCHEMAS[c]) };
  },
  ...MLFLOW_APP_OPERATIONS,
};

/** Every SageMaker operation served: the routing itself, so the service-model test drives each one. */
export const SAGEMAKER_OPERATIONS: readonly string[] = Object.keys(OPERATIONS);

/** One SageMaker call of one region; `host` is where the emulator was reached (presigned MLflow URLs point back to it). */
export function sagemaker(world: World, operation: string, input: Input, region: string, host?: string): unknown {
  if (!Object.hasOwn(OPERATIONS, operation)) unknownOperation(operation);
  return OPERATIONS[operation](world, input, region, host);
}

function unknownOperation(operation: string): never {
  throw new ServiceError('UnknownOperationException', `The emulator does not implement SageMaker ${operation}.`);
}

/** Metrics of finished evaluations: they never change, and computing them replays every rollout. */
const metricsOf = new WeakMap<Job, Record<string, number>>();

function describe(job: Job, state: JobState, now: number): Record<string, unknown> {
  const metrics = () => metricsOf.get(job) ?? metricsOf.set(job, evaluationMetrics(job, now)).get(job) ?? {};
  const document = { ...job.document, ServiceOutput: serviceOutput(job, state, metrics) };
  return {
    JobName: job.name,
    JobArn: job.arn,
    RoleArn: job.roleArn,
    JobCategory: job.category,
    JobConfigSchemaVersion: job.schemaVersion,
    JobConfigDocument: JSON.stringify(document),
    CreationTime: seconds(job.created),
    LastModifiedTime: seconds(state.lastModified),
    EndTime: seconds(state.endTime),
    JobStatus: state.status,
    SecondaryStatus: state.secondary,
    SecondaryStatusTransitions: state.transitions.map((t) => ({
      Status: t.Status,
      StartTime: seconds(t.StartTime),
      EndTime: seconds(t.EndTime),
      StatusMessage: t.StatusMessage,
    })),
    FailureReason: state.failureReason,
    Tags: job.tags.length ? job.tags : undefined,
  };
}

function createJob(world: World, input: Input, region: string): unknown {
  const c = category(input);
  const name = String(input.JobName ?? '');
  const problems: string[] = [];
  if (!JOB_NAME_PATTERN.test(name))
    problems.push(
      `Value '${name}' at 'jobName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}`,
    );
  const roleArn = String(input.RoleArn ?? '');
  if (!ROLE_ARN.test(roleArn))
    problems.push(`Value '${roleArn}' at 'roleArn' failed to satisfy constraint: Member must be an IAM role ARN`);
  const text = String(input.JobConfigDocument ?? '');
  if (text.length > 262144)
    problems.push(`Value at 'jobConfigDocument' failed to satisfy constraint: Member must have length less than or equal to 262144`);
  if (problems.length)
    throw new ServiceError(
      'ValidationException',
      `${problems.length} validation error${problems.length > 1 ? 's' : ''} detected: ${problems.join('; ')}`,
    );
  if (input.JobConfigSchemaVersion !== SCHEMA_VERSION)
    throw new ServiceError(
      'ValidationException',
      `JobConfigSchemaVersion '${String(input.JobConfigSchemaVersion)}' is not supported for ${c}. Supported versions: ${SCHEMA_VERSION}.`,
    );
  let document: JobConfigDocument;
  try {
    document = JSON.parse(text) as JobConfigDocument;
  } catch (e) {
    throw new ServiceError('ValidationException', `JobConfigDocument is not valid JSON: ${(e as Error).message}`);
  }
  const invalid = validateDocument(c, document);
  if (invalid.length)
    throw new ServiceError(
      'ValidationException',
      `JobConfigDocument does not match the ${c} schema ${SCHEMA_VERSION}: ${invalid.join('; ')}`,
    );
  if (world.jobs.has(world.jobKey(c, name, region)))
    throw new ServiceError('ResourceInUse', `A job named ${name} already exists in category ${c}.`);
  const now = world.clock.now();
  if (
    c === 'AgentRFTEvaluation' &&
    [...world.jobs.values()].some(
      (j) => j.category === c && j.region === region && ['InProgress', 'Stopping'].includes(jobState(j, now).status),
    )
  ) {
    throw new ServiceError(
      'ResourceLimitExceeded',
      'The account already runs an evaluation job; by default one evaluation job runs at a time. Wait for it to finish or stop it.',
    );
  }
  delete document.ServiceOutput;
  const job = newJob(world, {
    name,
    category: c,
    roleArn,
    document,
    created: now,
    region,
    tags: (input.Tags as Job['tags'] | undefined) ?? [],
  });
  world.jobs.set(world.jobKey(c, name, region), job);
  return { JobArn: job.arn };
}

/** Builds a job with its plan: used by CreateJob and by the seeded history. */
export function newJob(
  world: World,
  spec: {
    name: string;
    category: JobCategory;
    roleArn: string;
    document: JobConfigDocument;
    created: number;
    region?: string;
    tags?: Job['tags'];
    speed?: number;
  },
): Job {
  const region = spec.region ?? world.region;
  const runtimeArn = spec.document.AgentConfig?.BedrockAgentCoreConfig?.AgentRuntimeArn;
  return {
    name: spec.name,
    category: spec.category,
    arn: jobArnOf({ region, account: ACCOUNT, category: spec.category, jobName: spec.name }),
    roleArn: spec.roleArn,
    schemaVersion: SCHEMA_VERSION,
    document: spec.document,
    created: spec.created,
    tags: spec.tags ?? [],
    plan: planJob(spec.category, spec.document, spec.roleArn, {
      ...world.planContext(region, (uri) => readRows(world, uri)),
      ...(spec.speed ? { speed: spec.speed } : {}),
    }),
    runtimeId: runtimeArn?.split('runtime/')[1],
    region,
    seed: world.seed,
  };
}

interface Summary {
  job: Job;
  state: JobState;
}

const STATUS = ['InProgress', 'Completed', 'Failed', 'Stopping', 'Stopped', 'Deleting', 'DeleteFailed'];
const SORT_BY = ['Name', 'CreationTime', 'Status'];

function listJobs(world: World, input: Input, now: number, region: string): unknown {
  const c = category(input);
  const max = input.MaxResults === undefined ? 50 : Number(input.MaxResults);
  if (!Number.isInteger(max) || max < 1 || max > 100)
    throw new ServiceError(
      'ValidationException',
      `Value '${String(input.MaxResults)}' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and 100`,
    );
  if (input.StatusEquals !== undefined && !STATUS.includes(String(input.StatusEquals)))
    throw new ServiceError(
      'ValidationException',
      `Value '${String(input.StatusEquals)}' at 'statusEquals' failed to satisfy constraint: Member must satisfy enum value set: [${STATUS.join(', ')}]`,
    );
  const sortBy = String(input.SortBy ?? 'CreationTime');
  if (!SORT_BY.includes(sortBy))
    throw new ServiceError(
      'ValidationException',
      `Value '${sortBy}' at 'sortBy' failed to satisfy constraint: Member must satisfy enum value set: [${SORT_BY.join(', ')}]`,
    );
  const ms = (v: unknown) => (typeof v === 'number' ? v * 1000 : undefined);
  const [createdAfter, createdBefore, modifiedAfter, modifiedBefore] = [
    'CreationTimeAfter',
    'CreationTimeBefore',
    'LastModifiedTimeAfter',
    'LastModifiedTimeBefore',
  ].map((k) => ms(input[k]));
  const contains = typeof input.NameContains === 'string' ? input.NameContains.toLowerCase() : undefined;
  let rows: Summary[] = [...world.jobs.values()]
    .filter((j) => j.category === c && j.region === region && j.created <= now)
    .map((job) => ({ job, state: jobState(job, now) }));
  rows = rows.filter(
    ({ job, state }) =>
      (!contains || job.name.toLowerCase().includes(contains)) &&
      (input.StatusEquals === undefined || state.status === input.StatusEquals) &&
      (createdAfter === undefined || job.created > createdAfter) &&
      (createdBefore === undefined || job.created < createdBefore) &&
      (modifiedAfter === undefined || state.lastModified > modifiedAfter) &&
      (modifiedBefore === undefined || state.lastModified < modifiedBefore),
  );
  const key = (s: Summary): string | number => (sortBy === 'Name' ? s.job.name : sortBy === 'Status' ? s.state.status : s.job.created);
  const direction = input.SortOrder === 'Ascending' ? 1 : -1;
  rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return (x < y ? -1 : x > y ? 1 : a.job.name < b.job.name ? -1 : 1) * direction;
  });
  const start = decodeToken(input.NextToken);
  const page = rows.slice(start, start + max);
  const next = start + max < rows.length ? Buffer.from(JSON.stringify({ offset: start + max })).toString('base64') : undefined;
  return {
    JobSummaries: page.map(({ job, state }) => ({
      JobArn: job.arn,
      JobName: job.name,
      JobCategory: job.category,
      JobStatus: state.status,
      JobSecondaryStatus: state.secondary,
      CreationTime: seconds(job.created),
      LastModifiedTime: seconds(state.lastModified),
      EndTime: seconds(state.endTime),
    })),
    NextToken: next,
  };
}

function decodeToken(token: unknown): number {
  if (token === undefined) return 0;
  try {
    const offset = (JSON.parse(Buffer.from(String(token), 'base64').toString('utf8')) as { offset?: unknown }).offset;
    if (typeof offset === 'number' && offset >= 0) return offset;
  } catch {
    // Fall through to the error below.
  }
  throw new ServiceError('ValidationException', 'The NextToken is not valid. Start again without it.');
}
