import type { AwsClients } from '../../aws/clients';
import { filterLogEvents } from '../../aws/logs';
import type { JobCategory } from '../../core/jobs/status';
import { parseRolloutLine, parseStepLine, StepClock, type JobContext, type ReadItem, type StepBoundary } from '../../core/rollouts';
import type { RolloutReader } from './reader';

// CloudWatch Logs as a rollout source: a runtime's log group (records, SDK lines, tool output) and the job's service log (step lines).

type LogLine = Extract<ReadItem, { text: string }>;

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
  context?: (signal: AbortSignal) => Promise<JobContext>;
}

/** FilterLogEvents from `start`, then from the last event seen; events at the boundary millisecond are not read twice. */
export function logGroupReader(aws: AwsClients, reading: LogGroupReading): RolloutReader {
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
    accepts: (t) => !reading.jobArn || !t.jobArn || t.jobArn === reading.jobArn,
    context: reading.context,
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

/** Matching events the record probe looks at before deciding the log holds none of this job's records. */
const PROBE_EVENTS = 200;

/** Whether the job's window of its runtime log holds a rollout record of this job (records of other jobs do not count). */
export async function logHasRecords(
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
        if (item.kind === 'transcript' && (!window.jobArn || !item.transcript.jobArn || item.transcript.jobArn === window.jobArn))
          return true;
      if (++seen >= PROBE_EVENTS) return false;
    }
  } catch (error) {
    if (signal.aborted || (error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
  }
  return false;
}
