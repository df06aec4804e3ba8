import type { AwsClients } from '../aws/clients';
import { filterLogEvents } from '../aws/logs';
import { describeJob, type JobDescription } from '../aws/sagemaker';
import type { JobCategory } from '../core/jobs/status';
import {
  assignSteps,
  linesOf,
  parseStepLine,
  RolloutCollector,
  StepClock,
  type Rollout,
  type SkippedLine,
  type StepBoundary,
} from '../core/rollouts';
import { parseRuntimeArn, runtimeLogGroup } from '../core/smoke';

// Shared by the replay board and `mtrl rollouts --job`: where a job's rollouts and step boundaries are logged.

/** One log line (or a multi-line message) and the epoch ms of its log event, when the source has one. */
interface LogLine {
  text: string;
  time?: number;
}

/** Where new log text comes from and whether to keep polling it. */
export interface LogReader {
  /** Lines of the log, from where the last call stopped. */
  read(signal: AbortSignal): AsyncIterable<LogLine>;
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

/** A job's rollouts: its runtime's log group from the job's creation to its end, latest step first, filtered to the job's ARN. */
export async function jobReader(
  aws: AwsClients,
  job: { jobName: string; category: JobCategory; region?: string },
  signal: AbortSignal,
): Promise<LogReader> {
  const sagemaker = aws.sagemaker(job.region);
  const described = await describeJob(sagemaker, job, signal);
  const problem = noRuntimeLog(job.jobName, described);
  if (problem) throw new Error(problem);
  const agent = described.config!.AgentConfig!.BedrockAgentCoreConfig!;
  let status = described.JobStatus;
  let clock: StepClock | undefined;
  const steps = async (s: AbortSignal) => (clock = await jobStepClock(aws, job, s));
  return logGroupReader(aws, {
    region: job.region,
    logGroupName: runtimeLogGroup(parseRuntimeArn(agent.AgentRuntimeArn!)!.runtimeId, agent.Qualifier ?? 'DEFAULT'),
    start: described.CreationTime?.getTime() ?? 0,
    end: async () =>
      status === 'InProgress' || status === 'Stopping'
        ? undefined
        : (described.EndTime?.getTime() ?? (await describeJob(sagemaker, job)).EndTime?.getTime()),
    running: async (s) => {
      status = (await describeJob(sagemaker, job, s)).JobStatus;
      return status === 'InProgress' || status === 'Stopping';
    },
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

/** Every rollout of a job, each dated by the best evidence of its step (record, else the service log's step lines). */
export async function readJobRollouts(
  aws: AwsClients,
  job: { jobName: string; category: JobCategory; region?: string },
  signal: AbortSignal,
): Promise<Rollout[]> {
  const reader = await jobReader(aws, job, signal);
  const clock = await reader.steps?.(signal);
  const collector = new RolloutCollector();
  for await (const line of reader.read(signal)) collector.add(line.text, line.time);
  const rollouts = collector.finish().filter((r) => reader.accepts(r));
  if (clock) assignSteps(rollouts, clock);
  return rollouts;
}
