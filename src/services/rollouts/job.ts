import type { AwsClients } from '../../aws/clients';
import { getObject, parseS3Uri } from '../../aws/s3';
import { describeJob, type JobDescription } from '../../aws/sagemaker';
import { datasetRows } from '../../core/dataset/datasetRows';
import { formatFromName } from '../../core/dataset/names';
import { documentFacts } from '../../core/jobs/document';
import type { JobCategory } from '../../core/jobs/status';
import { boundariesFromMetrics, boundariesFromStatus, StepClock, type JobContext } from '../../core/rollouts';
import { parseRuntimeArn, runtimeLogGroup } from '../../core/smoke';
import { TaskMatcher } from '../../core/transcript/tasks';
import { jobStepClock, logGroupReader, logHasRecords } from './logs';
import type { RolloutReader } from './reader';
import { hasTraces, s3ArtifactReader, traceReader, traceRunOf, type TraceRun } from './traces';

// A job's rollouts, from one DescribeJob per opening: the runtime log (records) when it holds them, else the MLflow run's
// traces, else the log's SDK and tool-output lines; with what the job tells about them (training data, threshold, steps).

type JobAddress = { jobName: string; category: JobCategory; region?: string };

/** Which source `jobReader` reads: the best there is (default), or the runtime log or the MLflow traces by choice. */
export type RolloutOrigin = 'best' | 'log' | 'traces';

/** Training data read to match rollouts to tasks; a larger file is left unread (the exact first message keys the group). */
const DATASET_BYTES = 64 * 1024 * 1024;

/** Why a job has no runtime log to read, or undefined when it has one. */
function noRuntimeLog(jobName: string, described: JobDescription): string | undefined {
  const agent = described.config?.AgentConfig?.BedrockAgentCoreConfig;
  if (agent?.AgentRuntimeArn)
    return parseRuntimeArn(agent.AgentRuntimeArn)
      ? undefined
      : `Job ${jobName}'s runtime ARN ${agent.AgentRuntimeArn} does not name a runtime.`;
  const lambda = described.config?.AgentConfig?.CustomAgentLambdaConfig?.LambdaArn;
  return lambda
    ? `Job ${jobName} runs a Lambda agent (${lambda}); open its CloudWatch log group with "MTRL: Open Rollouts" → log group.`
    : `Job ${jobName} names no AgentCore runtime in its AgentConfig, so there is no runtime log to read.`;
}

/** The training data's rows from the job's `InputDataConfig` (train channel, or evaluation), or undefined when unreachable. */
async function jobTasks(
  aws: AwsClients,
  job: JobAddress,
  described: JobDescription,
  signal: AbortSignal,
): Promise<TaskMatcher | undefined> {
  const datasets = described.config ? documentFacts(job.category, described.config).datasets : {};
  const uri = datasets.train ?? datasets.training ?? datasets.evaluation ?? Object.values(datasets)[0];
  const location = uri ? parseS3Uri(uri) : undefined;
  const format = location ? formatFromName(location.key) : undefined;
  if (!location || !format) return undefined;
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of getObject(aws.s3(job.region), location, undefined, signal)) {
      chunks.push(chunk);
      if ((size += chunk.byteLength) > DATASET_BYTES) return undefined;
    }
    const matcher = new TaskMatcher(await datasetRows(Buffer.concat(chunks), format));
    return matcher.size ? matcher : undefined;
  } catch (error) {
    // Unreachable training data (a folder, no permission) only loses the row match: the first message keys the group.
    if (signal.aborted) throw error;
    return undefined;
  }
}

/** The job's success threshold (`success_threshold`), when its hyperparameters name one. */
function thresholdOf(job: JobAddress, described: JobDescription): number | undefined {
  const raw = described.config ? documentFacts(job.category, described.config).hyperparameters.success_threshold : undefined;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

/** The per-step metric whose logging time ends a step (MLflow logs it when the step's rollouts are scored). */
const STEP_METRIC = 'rollout/reward/mean';

/**
 * Step ends: the service log's step lines, else the times the MLflow run logged each step's metrics, else the status
 * messages `Training in progress, step N/M`.
 */
async function clockOf(
  aws: AwsClients,
  job: JobAddress,
  described: JobDescription,
  signal: AbortSignal,
  run?: TraceRun,
): Promise<StepClock> {
  const logged = await jobStepClock(aws, job, signal);
  if (logged.size) return logged;
  if (run) {
    const points = await run.client.metricHistory(run.runId, STEP_METRIC, signal).catch((error: unknown) => {
      if (signal.aborted) throw error;
      // A run without the metric (or unreadable now) leaves the status messages.
      return [];
    });
    if (points.length) return new StepClock(boundariesFromMetrics(points), 'time');
  }
  const transitions = (described.SecondaryStatusTransitions ?? []).map((t) => ({
    message: t.StatusMessage,
    start: t.StartTime?.getTime(),
  }));
  return new StepClock(boundariesFromStatus(transitions), 'time');
}

/**
 * A job's rollouts. The runtime's log group from the job's creation to its end, latest step first, filtered to the job's
 * ARN, when it holds rollout records; else the MLflow run's traces when it has any (spans from REST, else each trace's
 * S3 artifact); else the log's SDK and tool-output lines. `origin` picks a source instead.
 */
export async function jobReader(
  aws: AwsClients,
  job: JobAddress,
  signal: AbortSignal,
  origin: RolloutOrigin = 'best',
  onTraceLimit?: (limit: number) => void,
): Promise<RolloutReader> {
  const sagemaker = aws.sagemaker(job.region);
  let described = await describeJob(sagemaker, job, signal);
  let fresh = true;
  const isRunning = () => described.JobStatus === 'InProgress' || described.JobStatus === 'Stopping';
  // The opening's description answers the first question; follow mode asks the service again on each poll.
  const running = async (s: AbortSignal) => {
    if (!fresh) described = await describeJob(sagemaker, job, s);
    fresh = false;
    return isRunning();
  };
  let tasks: Promise<TaskMatcher | undefined> | undefined;
  let clock: StepClock | undefined;
  let run: TraceRun | undefined;
  const context = async (s: AbortSignal): Promise<JobContext> => {
    tasks ??= jobTasks(aws, job, described, s);
    clock = await clockOf(aws, job, described, s, run);
    return { successThreshold: thresholdOf(job, described), tasks: await tasks, clock };
  };
  const problem = noRuntimeLog(job.jobName, described);
  const agent = described.config?.AgentConfig?.BedrockAgentCoreConfig;
  const logGroupName = problem
    ? undefined
    : runtimeLogGroup(parseRuntimeArn(agent!.AgentRuntimeArn!)!.runtimeId, agent!.Qualifier ?? 'DEFAULT');
  const start = described.CreationTime?.getTime() ?? 0;
  if (
    origin === 'traces' ||
    (origin === 'best' &&
      !(
        logGroupName &&
        (await logHasRecords(aws, job.region, logGroupName, { start, end: described.EndTime?.getTime(), jobArn: described.JobArn }, signal))
      ))
  ) {
    run = await traceRunOf(aws, job.jobName, described, signal).catch((error: unknown) => {
      if (origin === 'traces' || signal.aborted) throw error;
      // The log's SDK lines are still a source: a run MLflow cannot find now is no reason to fail.
      return undefined;
    });
    if (origin === 'traces' && !run)
      throw new Error(`Job ${job.jobName} names no MLflow app or tracking server (MlflowConfig), so it has no traces to read.`);
    if (run && (origin === 'traces' || (await hasTraces(run, signal))))
      return traceReader(run, { running, onLimit: onTraceLimit, context, artifacts: s3ArtifactReader(aws, job.region) });
  }
  if (!logGroupName) throw new Error(problem);
  return logGroupReader(aws, {
    region: job.region,
    logGroupName,
    start,
    end: async () => (isRunning() ? undefined : (described.EndTime?.getTime() ?? (await describeJob(sagemaker, job)).EndTime?.getTime())),
    running,
    jobArn: described.JobArn,
    latestFrom: async () => {
      const c = clock ?? (await context(signal)).clock!;
      // The last finished step and the one running now; before two steps have ended there is nothing to reorder.
      const from = c.lastStep >= 2 ? c.startOf(c.lastStep) : undefined;
      // A step's end line carries the time of its last rollout: the next step starts just after.
      return from === undefined ? undefined : from + 1;
    },
    context,
  });
}
