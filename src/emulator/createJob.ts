import type { JobConfigDocument } from '../core/jobs/document';
import { JOB_NAME_PATTERN, jobArnOf } from '../core/jobs/reference';
import { MTRL_QUOTAS } from '../core/jobs/quotas';
import type { JobCategory } from '../core/jobs/status';
import { readRows } from './datasets';
import { finishedStep, resumeStepOf } from './checkpoints';
import { jobState } from './jobs';
import type { Job } from './jobModel';
import { planContextOf, planJob } from './plan';
import { ServiceError } from './protocol';
import { hyperparameterRangeProblems, SCHEMA_VERSION, validateDocument } from './schemas';
import { quotaOf } from './serviceQuotas';
import { ACCOUNT, type World } from './world';

const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/;

/** CreateJob of a category already validated: the request's checks in the service's order, then the planned job. */
export function createJob(world: World, c: JobCategory, input: Record<string, unknown>, region: string): unknown {
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
  const config = c === 'AgentRFT' ? document.TrainingConfig : document.EvaluationConfig;
  const outOfRange = hyperparameterRangeProblems(c, config?.HyperParameters ?? {});
  if (outOfRange.length)
    throw new ServiceError('ValidationException', `JobConfigDocument hyperparameters out of range: ${outOfRange.join('; ')}.`);
  if (world.jobs.has(world.jobKey(c, name, region)))
    throw new ServiceError('ResourceInUse', `A job named ${name} already exists in category ${c}.`);
  const now = world.clock.now();
  refuseOverQuota(world, c, region, now);
  const trainingJob = (name: string, at: string) => world.jobs.get(world.jobKey('AgentRFT', name, at));
  const resumeFrom = resumeStepOf(trainingJob, c, document, region, now, (j) => finishedStep(j, jobState(j, now)));
  delete document.ServiceOutput;
  const job = newJob(world, {
    name,
    category: c,
    roleArn,
    document,
    created: now,
    region,
    tags: (input.Tags as Job['tags'] | undefined) ?? [],
    resumeFrom,
  });
  if (resumeFrom !== undefined && job.plan.steps === 0)
    throw new ServiceError(
      'ValidationException',
      `The checkpoint holds step ${resumeFrom}, which already reaches the job's max_steps: nothing is left to train.`,
    );
  world.jobs.set(world.jobKey(c, name, region), job);
  return { JobArn: job.arn };
}

/** The account's concurrency quota of the category: a new account's 0, or every allowed job already running, refuses CreateJob. */
function refuseOverQuota(world: World, c: JobCategory, region: string, now: number): void {
  const { code, what } = MTRL_QUOTAS[c];
  const quota = quotaOf(world, code);
  const running = [...world.jobs.values()].filter(
    (j) => j.category === c && j.region === region && j.created <= now && ['InProgress', 'Stopping'].includes(jobState(j, now).status),
  ).length;
  if (running < quota) return;
  if (c === 'AgentRFTEvaluation' && quota === 1)
    throw new ServiceError(
      'ResourceLimitExceeded',
      'The account already runs an evaluation job; by default one evaluation job runs at a time. Wait for it to finish or stop it.',
    );
  throw new ServiceError(
    'ResourceLimitExceeded',
    `The account-level service limit '${what}' (quota ${code}) is ${quota} Jobs, with current utilization of ${running} Jobs and a request delta of 1 Jobs. Please use AWS Service Quotas to request an increase for this quota.`,
  );
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
    /** The step of the checkpoint the job starts from (its InputModelPackageArn). */
    resumeFrom?: number;
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
      ...planContextOf(world, region, (uri) => readRows(world, uri)),
      ...(spec.speed ? { speed: spec.speed } : {}),
      ...(spec.resumeFrom ? { resumeFrom: spec.resumeFrom } : {}),
    }),
    runtimeId: runtimeArn?.split('runtime/')[1],
    region,
    seed: world.seed,
  };
}
