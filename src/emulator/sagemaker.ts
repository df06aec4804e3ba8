import { isJobCategory, type JobCategory } from '../core/jobs/status';
import { createJob } from './createJob';
import { describe } from './describeJob';
import { jobState } from './jobs';
import type { Job } from './jobModel';
import { listJobs } from './listJobs';
import { MLFLOW_APP_OPERATIONS } from './mlflowApps';
import { ServiceError } from './protocol';
import { SCHEMA_VERSION, SCHEMAS } from './schemas';
import type { World } from './world';

type Input = Record<string, unknown>;

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

/** DescribeJob's answer with no checkpoint in its ServiceOutput, as a job of a service that reports none. */
function withoutCheckpoint(described: Record<string, unknown>): Record<string, unknown> {
  const document = JSON.parse(String(described.JobConfigDocument)) as { ServiceOutput?: Record<string, unknown> };
  delete document.ServiceOutput?.ResumableCheckpoint;
  delete document.ServiceOutput?.ModelCheckpoint;
  return { ...described, JobConfigDocument: JSON.stringify(document) };
}

/** The SageMaker operations the emulator answers (JSON 1.1, target `SageMaker.<Operation>`): the Jobs API and managed MLflow apps. */
const OPERATIONS: Record<string, Handler> = {
  CreateJob: (world, input, region) => createJob(world, category(input), input, region),
  DescribeJob: (world, input, region) => {
    const job = findJob(world, input, region);
    const now = world.clock.now();
    const described = describe(job, jobState(job, now), now);
    if (world.jobsWithoutDocument.has(job.name)) return { ...described, JobConfigDocument: undefined };
    return world.jobsWithoutCheckpoint.has(job.name) ? withoutCheckpoint(described) : described;
  },
  ListJobs: (world, input, region) => listJobs(world, category(input), input, world.clock.now(), region),
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
