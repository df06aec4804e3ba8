import type { AwsClients } from '../aws/clients';
import { filterLogEvents } from '../aws/logs';
import { describeJob, type JobDescription } from '../aws/sagemaker';
import type { JobCategory } from '../core/jobs/status';
import {
  assignSteps,
  linesOf,
  parseRolloutLine,
  parseStepLine,
  RolloutCollector,
  StepClock,
  type Rollout,
  type SkippedLine,
  type StepBoundary,
} from '../core/rollouts';
import { parseRuntimeArn, runtimeLogGroup } from '../core/smoke';
import { hasTraces, traceReader, traceRunOf } from './rolloutTraces';

// Shared by the replay board and `mtrl rollouts --job`: where a job's rollouts and step boundaries are logged.

/** One log line (or a multi-line message) and the epoch ms of its log event, when the source has one. */
interface LogLine {
  text: string;
  time?: number;
}

/** A rollout read whole rather than from log lines: one MLflow trace. */
export interface WholeRollout {
  rollout: Rollout;
}

/** Hands what a reader read to the collector. */
export function feed(collector: RolloutCollector, item: LogLine | WholeRollout): void {
  if ('rollout' in item) collector.addRollout(item.rollout);
  else collector.add(item.text, item.time);
}

/** Where new log text (or whole rollouts) comes from and whether to keep polling it. */
export interface LogReader {
  /** What it reads: log lines, or the MLflow run's traces (when the agent logs no rollout record). */
  from?: 'log' | 'traces';
  /** Lines of the log (or rollouts), from where the last call stopped. */
  read(signal: AbortSignal): AsyncIterable<LogLine | WholeRollout>;
  /** Whether more may come (a running job): follow mode polls `read` again. */
  followable(signal: AbortSignal): Promise<boolean>;
  /** Whether a rollout belongs here: a runtime's log also holds other jobs' rollouts. */
  accepts(rollout: Rollout): boolean;
  /** Step ends from the service log, read again on each call (a running job adds steps); empty without step lines. */
  steps?(signal: AbortSignal): Promise<StepClock>;
  /** Lines of the last read too long to read (a file's; a log event is far below the line cap). */
  readonly skipped?: readonly SkippedLine[];
}

/** A log file or any byte stream, read whole on each call; lines past the line cap are skipped and listed in `skipped`. */
export function byteStreamReader(
  open: (signal: AbortSignal) => Promise<AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>>,
): LogReader {
  const skipped: SkippedLine[] = [];
  return {
    skipped,
    async *read(signal) {
      skipped.length = 0;
      for await (const text of linesOf(await open(signal), (line, chars) => skipped.push({ line, chars }))) yield { text };
    },
    followable: async () => false,
    accepts: () => true,
  };
}

/** A time window of a log group, read once: events at the window's end are left to the next window. */
async function* windowOf(
  aws: AwsClients,
  region: string | undefined,
  logGroupName: string,
  startTime: number,
  endTime: number | undefined,
  signal: AbortSignal,
  pages?: { firstPageSize: number; pageSize: number },
): AsyncIterable<LogLine> {
  for await (const event of filterLogEvents(aws.logs(region), { logGroupName, startTime, endTime, ...pages }, signal)) {
    if (event.message !== undefined) yield { text: event.message, time: event.timestamp };
  }
}

/** Short pages for the latest step: its first rollouts reach the board without waiting for a 10,000-event page. */
const LATEST_PAGES = { firstPageSize: 120, pageSize: 1_500 };

interface LogGroupReading {
  region?: string;
  logGroupName: string;
  start: number;
  end: () => Promise<number | undefined>;
  running: (signal: AbortSignal) => Promise<boolean>;
  jobArn?: string;
  /** Read this time onward first (the latest step), then the rest: the board shows the newest rollouts first. */
  latestFrom?: () => Promise<number | undefined>;
  steps?: (signal: AbortSignal) => Promise<StepClock>;
}

/** FilterLogEvents from `start`, then from the last event seen; events at the boundary millisecond are not read twice. */
export function logGroupReader(aws: AwsClients, reading: LogGroupReading): LogReader {
  let from = reading.start;
  let seen = new Set<string>();
  let first = true;
  return {
    async *read(signal) {
      const client = aws.logs(reading.region);
      const endTime = await reading.end();
      const latest = first ? await reading.latestFrom?.() : undefined;
      first = false;
      if (latest !== undefined && latest > from) {
        // Two windows: [latest, end] now, [from, latest) after; follow mode then continues from the newest event.
        let newest = from;
        for await (const line of windowOf(aws, reading.region, reading.logGroupName, latest, endTime, signal, LATEST_PAGES)) {
          newest = Math.max(newest, line.time ?? 0);
          yield line;
        }
        yield* windowOf(aws, reading.region, reading.logGroupName, from, latest - 1, signal);
        // The newest millisecond was read whole: follow mode starts after it.
        from = newest + 1;
        seen = new Set();
        return;
      }
      const boundary = new Set<string>();
      let last = from;
      for await (const event of filterLogEvents(client, { logGroupName: reading.logGroupName, startTime: from, endTime }, signal)) {
        if (event.eventId && seen.has(event.eventId)) continue;
        const at = event.timestamp ?? last;
        if (at > last) {
          last = at;
          boundary.clear();
        }
        if (event.eventId && at === last) boundary.add(event.eventId);
        if (event.message !== undefined) yield { text: event.message, time: event.timestamp };
      }
      from = last;
      seen = boundary;
    },
    from: 'log',
    followable: reading.running,
    accepts: (rollout) => !reading.jobArn || !rollout.job_arn || rollout.job_arn === reading.jobArn,
    steps: reading.steps,
  };
}

/** The step lines of a job's service log (`/aws/sagemaker/Job/<Category>`, streams named after the job). */
export async function jobStepClock(
  aws: AwsClients,
  job: { jobName: string; category: JobCategory; region?: string },
  signal: AbortSignal,
): Promise<StepClock> {
  const boundaries: StepBoundary[] = [];
  try {
    for await (const event of filterLogEvents(
      aws.logs(job.region),
      { logGroupName: `/aws/sagemaker/Job/${job.category}`, logStreamNamePrefix: `${job.jobName}/`, filterPattern: 'Step' },
      signal,
    )) {
      const b = event.message && event.timestamp !== undefined ? parseStepLine(event.message, event.timestamp) : undefined;
      if (b) boundaries.push(b);
    }
  } catch (error) {
    // No service log (yet, or no permission) means no step lines: steps stay unknown, the rollouts still replay.
    if (signal.aborted || (error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
  }
  return new StepClock(boundaries);
}

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

/** Matching events the record probe looks at before deciding the log holds none of this job's records. */
const PROBE_EVENTS = 200;

/** Whether the job's window of its runtime log holds a rollout record of this job (records of other jobs do not count). */
async function logHasRecords(
  aws: AwsClients,
  region: string | undefined,
  logGroupName: string,
  window: { start: number; end?: number; jobArn?: string },
  signal: AbortSignal,
): Promise<boolean> {
  let seen = 0;
  try {
    for await (const event of filterLogEvents(
      aws.logs(region),
      { logGroupName, startTime: window.start, endTime: window.end, filterPattern: '"mtrl_rollout"', pageSize: PROBE_EVENTS },
      signal,
    )) {
      for (const item of parseRolloutLine(event.message ?? ''))
        if (item.kind === 'record' && (!window.jobArn || !item.rollout.job_arn || item.rollout.job_arn === window.jobArn)) return true;
      if (++seen >= PROBE_EVENTS) return false;
    }
  } catch (error) {
    if (signal.aborted || (error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
  }
  return false;
}

/** Which source `jobReader` reads: the best there is (default), or the runtime log or the MLflow traces by choice. */
export type RolloutOrigin = 'best' | 'log' | 'traces';

/**
 * A job's rollouts. The runtime's log group from the job's creation to its end, latest step first, filtered to the job's
 * ARN, when it holds rollout records; else the MLflow run's traces when it has any (an agent that logs nothing); else the
 * log's SDK and feedback lines. `origin` picks a source instead.
 */
export async function jobReader(
  aws: AwsClients,
  job: { jobName: string; category: JobCategory; region?: string },
  signal: AbortSignal,
  origin: RolloutOrigin = 'best',
  onTraceLimit?: (limit: number) => void,
): Promise<LogReader> {
  const sagemaker = aws.sagemaker(job.region);
  const described = await describeJob(sagemaker, job, signal);
  const problem = noRuntimeLog(job.jobName, described);
  let status = described.JobStatus;
  const running = async (s: AbortSignal) => {
    status = (await describeJob(sagemaker, job, s)).JobStatus;
    return status === 'InProgress' || status === 'Stopping';
  };
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
    const run = await traceRunOf(aws, job.jobName, described, signal).catch((error: unknown) => {
      if (origin === 'traces' || signal.aborted) throw error;
      // The log's SDK lines are still a source: a run MLflow cannot find now is no reason to fail.
      return undefined;
    });
    if (origin === 'traces' && !run)
      throw new Error(`Job ${job.jobName} names no MLflow app or tracking server (MlflowConfig), so it has no traces to read.`);
    if (run && (origin === 'traces' || (await hasTraces(run, signal))))
      return traceReader(run, { running, onLimit: onTraceLimit, steps: (s) => jobStepClock(aws, job, s) });
  }
  if (!logGroupName) throw new Error(problem);
  let clock: StepClock | undefined;
  const steps = async (s: AbortSignal) => (clock = await jobStepClock(aws, job, s));
  return logGroupReader(aws, {
    region: job.region,
    logGroupName,
    start,
    end: async () =>
      status === 'InProgress' || status === 'Stopping'
        ? undefined
        : (described.EndTime?.getTime() ?? (await describeJob(sagemaker, job)).EndTime?.getTime()),
    running,
    jobArn: described.JobArn,
    latestFrom: async () => {
      const c = clock ?? (await steps(signal));
      // The last finished step and the one running now; before two steps have ended there is nothing to reorder.
      const start = c.lastStep >= 2 ? c.startOf(c.lastStep) : undefined;
      // A step's end line carries the time of its last rollout: the next step starts just after.
      return start === undefined ? undefined : start + 1;
    },
    steps,
  });
}

/**
 * Every rollout of a job, each dated by the best evidence of its step (record, trace, else the service log's step lines), and
 * where they came from. A read that fails part-way (throttling, a 5xx, a paging loop) keeps what it had: `stoppedBy` is the error.
 */
export async function readJobRollouts(
  aws: AwsClients,
  job: { jobName: string; category: JobCategory; region?: string },
  signal: AbortSignal,
  origin: RolloutOrigin = 'best',
  onTraceLimit?: (limit: number) => void,
): Promise<{ rollouts: Rollout[]; from: 'log' | 'traces'; stoppedBy?: unknown }> {
  const reader = await jobReader(aws, job, signal, origin, onTraceLimit);
  let stoppedBy: unknown;
  const stop = (error: unknown) => {
    if (signal.aborted) throw error;
    stoppedBy ??= error;
  };
  const clock = await reader.steps?.(signal).catch((error: unknown) => void stop(error));
  const collector = new RolloutCollector();
  try {
    for await (const item of reader.read(signal)) feed(collector, item);
  } catch (error) {
    stop(error);
  }
  const rollouts = collector.finish().filter((r) => reader.accepts(r));
  if (clock) assignSteps(rollouts, clock);
  return { rollouts, from: reader.from ?? 'log', stoppedBy };
}
