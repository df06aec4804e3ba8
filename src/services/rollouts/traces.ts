import type { AwsClients } from '../../aws/clients';
import type { MlflowClient } from '../../aws/mlflow/client';
import { mlflowClientFor } from '../../aws/mlflow/factory';
import { getObjectText, parseS3Uri } from '../../aws/s3';
import type { HeldBytes } from '../../aws/responseBody';
import type { JobDescription } from '../../aws/sagemaker';
import { mlflowConfigOf } from '../../core/jobs/document';
import { parseMlflowArn } from '../../core/metrics/mlflow';
import { traceArtifactUri, tracesIn, transcriptFromTrace, type JobContext, type Trace, type TraceInfo } from '../../core/rollouts';
import type { Transcript } from '../../core/transcript/model';
import { outsideText } from '../../core/text/display';
import { JSON_TOO_DEEP, JsonTooDeep, parseOutsideJson } from '../../core/text/json';
import { locateRun } from '../../aws/mlflow/locate';
import type { RolloutReader } from './reader';

// A job's rollouts from its MLflow run's traces (one per rollout, written by the service): REST `traces/search` lists
// them, `traces/batchGet` gives their spans; when it gives none (or fails) each trace's `traces.json` artifact is read
// from S3 at its `mlflow.artifactLocation` tag, as real users had to.

/** Traces read per opening, newest first: the latest steps of a large run (a 100-step run has 102,400). */
export const TRACE_LIMIT = 25_000;
/** Trace artifacts read from S3 at once, across pages: one at a time, 1,511 of them at 20 ms a GET took 30 s. */
export const ARTIFACT_READS_AT_ONCE = 32;
/** Pages listed and fetched ahead of the one being yielded, so the S3 reads never wait for a listing. */
const PAGES_AHEAD = 2;

/** The MLflow run whose traces hold a job's rollouts. */
export interface TraceRun {
  client: Pick<MlflowClient, 'searchTraces' | 'batchGetTraces' | 'metricHistory'>;
  runId: string;
  experimentId: string;
}

/** The run a described job logs to, or undefined when it names no MLflow resource (the finder's errors propagate). */
export async function traceRunOf(
  aws: AwsClients,
  jobName: string,
  described: JobDescription,
  signal: AbortSignal,
): Promise<TraceRun | undefined> {
  const config = mlflowConfigOf(described.config);
  const resource = config ? parseMlflowArn(config.MlflowResourceArn) : undefined;
  if (!config || !resource) return undefined;
  const client = mlflowClientFor(aws, resource);
  const located = await locateRun(client, jobName, config, described.config?.ServiceOutput?.MlflowDetails, signal);
  return { client, runId: located.runId, experimentId: located.experimentId };
}

/** Whether the run has logged at least one trace. */
export async function hasTraces(run: TraceRun, signal: AbortSignal): Promise<boolean> {
  for await (const page of run.client.searchTraces({ experimentId: run.experimentId, runId: run.runId, limit: 1 }, signal))
    if (page.length) return true;
  return false;
}

/** Reads one trace's spans from its S3 artifact. */
export type ArtifactReader = (info: TraceInfo, signal: AbortSignal) => Promise<Transcript | undefined>;

/** One trace's `traces.json`: a rollout's spans take a few MB; more, or a read that stalls, is refused with a sentence. */
export const TRACE_ARTIFACT_LIMITS = { bytes: 64 * 2 ** 20, seconds: 60 };
/**
 * What the artifacts read at once may hold together (32 reads of 3 MB; the process holds about four times as much while it
 * reads, garbage included); past it, the read that passes it gives its previews and a note.
 */
export const TRACE_ARTIFACTS_HELD_BYTES = 96 * 2 ** 20;

/** Reads `traces.json` through S3 GetObject (the role needs s3:GetObject on the MLflow artifact bucket). */
export function s3ArtifactReader(aws: AwsClients, region?: string, limits = TRACE_ARTIFACT_LIMITS): ArtifactReader {
  const held: HeldBytes = { held: 0, limit: TRACE_ARTIFACTS_HELD_BYTES, what: 'trace artifacts read at once' };
  return async (info, signal) => {
    const uri = traceArtifactUri(info);
    const location = uri ? parseS3Uri(uri) : undefined;
    if (!uri || !location) return undefined;
    let text: string;
    try {
      text = await getObjectText(aws.s3(region), location, limits, signal, held);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ArtifactUnreadable(uri, error);
    }
    let parsed: unknown;
    try {
      parsed = parseOutsideJson(text);
    } catch (error) {
      throw new ArtifactUnreadable(
        uri,
        new Error(error instanceof JsonTooDeep ? `it holds ${JSON_TOO_DEEP}, which is not read` : notJson(text)),
      );
    }
    const [doc] = tracesIn(parsed);
    return doc ? transcriptFromTrace({ ...doc, trace_info: info }) : undefined;
  };
}

/** Why an artifact's text is not JSON, in words: gzip bytes (an object stored compressed), or how it starts. */
function notJson(text: string): string {
  // 0x1f 0x8b: gzip's magic bytes; the second is no UTF-8, so it decodes as U+FFFD.
  if (text.startsWith('\u001f\ufffd')) return 'it is gzip-compressed data, not JSON (the object was stored compressed)';
  return `it is not JSON (it starts "${outsideText(text.slice(0, 40), 40)}")`;
}

const DENIED = new Set(['AccessDenied', 'AccessDeniedException', 'Forbidden', 'AllAccessDisabled']);

/** The read of a trace's artifact failed: the message names the object, and the permission when S3 refused it. */
export class ArtifactUnreadable extends Error {
  constructor(
    readonly uri: string,
    cause: unknown,
  ) {
    const name = cause instanceof Error ? cause.name : '';
    const why = cause instanceof Error ? (name === 'Error' ? cause.message : `${name}: ${cause.message}`) : String(cause);
    const status = (cause as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
    const hint = DENIED.has(name) || status === 403 ? ' The role needs s3:GetObject on the MLflow artifact bucket.' : '';
    super(`Could not read the trace's spans from S3 (GetObject ${uri}): ${why.replace(/\.$/, '')}.${hint}`, { cause });
  }
}

export interface TraceReading {
  running: (signal: AbortSignal) => Promise<boolean>;
  /** At most this many traces on the first read (default TRACE_LIMIT); follow mode reads every new one. */
  limit?: number;
  /** Told when the first read stopped at the limit. */
  onLimit?: (limit: number) => void;
  context?: (signal: AbortSignal) => Promise<JobContext>;
  /** Where spans come from when `batchGet` gives none; absent: such traces are read from their previews. */
  artifacts?: ArtifactReader;
}

const startOf = (info: TraceInfo) => (info.request_time ? Date.parse(info.request_time) : NaN);
const hasSpans = (trace: Trace | undefined) => !!trace?.spans?.length;

/** Runs at most `size` tasks at once, the rest in the order they came. */
function limiter(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * Reads a run's traces as whole rollouts: the first read newest first (the latest step reaches the board first), page by
 * page, each page's traces fetched with their spans (from S3 when REST gives none, ARTIFACT_READS_AT_ONCE reads at once
 * across the pages fetched ahead); follow mode then lists the traces started since the newest seen. Rollouts come in
 * the order listed.
 */
export function traceReader(run: TraceRun, reading: TraceReading): RolloutReader {
  let newest: number | undefined;
  let seenAtNewest = new Set<string>();
  const notes: string[] = [];
  /** Fetches a page's spans: REST first, the S3 artifact for each trace REST left without spans. */
  const whole = async (
    infos: TraceInfo[],
    artifactRead: <T>(task: () => Promise<T>) => Promise<T>,
    signal: AbortSignal,
  ): Promise<(Transcript | undefined)[]> => {
    let fetched = new Map<string | undefined, Trace>();
    let restError: unknown;
    try {
      fetched = new Map(
        (
          await run.client.batchGetTraces(
            infos.map((i) => i.trace_id),
            signal,
          )
        ).map((t) => [t.trace_info?.trace_id, t]),
      );
    } catch (error) {
      if (signal.aborted || !reading.artifacts) throw error;
      restError = error;
    }
    return Promise.all(
      infos.map(async (info) => {
        const trace = fetched.get(info.trace_id);
        if (hasSpans(trace) || !reading.artifacts || !traceArtifactUri(info)) return transcriptFromTrace(trace ?? { trace_info: info });
        try {
          const artifacts = reading.artifacts;
          const read = () => (signal.throwIfAborted(), artifacts(info, signal));
          return (await artifactRead(read)) ?? transcriptFromTrace(trace ?? { trace_info: info });
        } catch (error) {
          if (restError !== undefined || signal.aborted) throw error;
          if (!notes.length) notes.push((error as Error).message);
          // Its previews still give the reward and the task.
          return transcriptFromTrace(trace ?? { trace_info: info });
        }
      }),
    );
  };
  return {
    from: 'traces',
    notes,
    async *read(signal) {
      const limit = reading.limit ?? TRACE_LIMIT;
      const first = newest === undefined;
      const query = first
        ? { experimentId: run.experimentId, runId: run.runId, limit }
        : // The boundary millisecond is listed again: traces already read there are skipped by id.
          { experimentId: run.experimentId, runId: run.runId, after: newest! - 1, oldestFirst: true };
      let read = 0;
      const artifactRead = limiter(ARTIFACT_READS_AT_ONCE);
      const ahead: { infos: TraceInfo[]; transcripts: Promise<(Transcript | undefined)[]> }[] = [];
      const emit = async function* (page: (typeof ahead)[number]) {
        const transcripts = await page.transcripts;
        for (const [i, info] of page.infos.entries()) {
          const start = startOf(info);
          if (Number.isFinite(start) && (newest === undefined || start >= newest)) {
            if (start !== newest) seenAtNewest = new Set();
            newest = start;
            seenAtNewest.add(info.trace_id);
          }
          const transcript = transcripts[i];
          if (transcript) yield { transcript };
        }
      };
      let listing: { error: unknown } | undefined;
      try {
        for await (const page of run.client.searchTraces(query, signal)) {
          const fresh = page.filter((info) => !(startOf(info) === newest && seenAtNewest.has(info.trace_id)));
          const transcripts = whole(fresh, artifactRead, signal);
          // Awaited in page order below; a later page's failure must not go unhandled meanwhile.
          transcripts.catch(() => undefined);
          ahead.push({ infos: fresh, transcripts });
          read += page.length;
          if (ahead.length > PAGES_AHEAD) yield* emit(ahead.shift()!);
        }
      } catch (error) {
        if (signal.aborted) throw error;
        // A listing that fails part-way (throttled): the pages listed before it are still given, then the error.
        listing = { error };
      }
      while (ahead.length) yield* emit(ahead.shift()!);
      if (listing) throw listing.error;
      if (first && read >= limit) reading.onLimit?.(limit);
      // A run without traces yet: follow mode starts from the beginning.
      newest ??= 0;
    },
    followable: reading.running,
    accepts: () => true,
    context: reading.context,
  };
}
