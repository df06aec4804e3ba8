import type { Transcript } from '../../core/transcript/model';
import { DEFAULT_SUCCESS_THRESHOLD, RolloutPipeline, type JobContext } from '../../core/rollouts';
import type { RolloutReader } from './reader';
import { localReader } from './files';
import { savedTranscripts } from './saved';

export type { RolloutReader } from './reader';
export { localReader, streamReader, UnreadableFile } from './files';
export { localDatasetRows, localTasks } from './dataset';
export { readSavedAt, savedTranscripts, SavedTranscriptsProblem } from './saved';
export { logGroupReader, jobStepClock } from './logs';
export { jobReader, type RolloutOrigin } from './job';
export { traceReader, traceRunOf, hasTraces, s3ArtifactReader, TRACE_LIMIT, type TraceRun } from './traces';

/**
 * The one rollout read loop (the board's load and follow, the CLI, the signal check): a reader's items through the
 * pipeline, the rollouts completed so far handed out every `batch` items, so whole ones never pile up. What is still
 * being rebuilt stays in the pipeline for the caller's take() or finish().
 */
export async function* streamRollouts(
  reader: RolloutReader,
  pipeline: RolloutPipeline,
  signal: AbortSignal,
  batch: () => number = () => 4096,
): AsyncGenerator<Transcript[]> {
  let read = 0;
  for await (const items of reader.readBatches?.(signal) ?? oneByOne(reader.read(signal))) {
    for (const item of items) {
      pipeline.feed(item);
      if (++read % batch() === 0) yield pipeline.take();
    }
    signal.throwIfAborted();
  }
}

async function* oneByOne<T>(items: AsyncIterable<T>): AsyncIterable<T[]> {
  for await (const item of items) yield [item];
}

/** Every rollout a reader gives in one read, through the one pipeline, prepared with what the job tells. */
export async function readRollouts(
  reader: RolloutReader,
  signal: AbortSignal,
  job?: JobContext,
  stopped?: { error?: unknown },
  judged?: { successThreshold?: number },
): Promise<Transcript[]>;
export async function readRollouts<T>(
  reader: RolloutReader,
  signal: AbortSignal,
  job: JobContext,
  stopped: { error?: unknown } | undefined,
  judged: { successThreshold?: number } | undefined,
  keep: (t: Transcript) => T,
): Promise<T[]>;
export async function readRollouts(
  reader: RolloutReader,
  signal: AbortSignal,
  job: JobContext = {},
  /** Given: a read that fails part-way (throttling, a 5xx, a paging loop) keeps what it had and puts the error here. */
  stopped?: { error?: unknown },
  /** Given: the success threshold the rollouts were judged at (the caller's, else the job's, else the default) lands here. */
  judged?: { successThreshold?: number },
  /** Given: what is kept of each rollout as it is read (summaryKeeper: what a summary reads; a tally: nothing); else the rollout whole. */
  keep: (t: Transcript) => unknown = (t) => t,
): Promise<unknown[]> {
  // What the caller says (--data, --success-threshold) wins over what the job tells.
  const context: JobContext = { ...(await reader.context?.(signal)), ...job };
  if (judged) judged.successThreshold = context.successThreshold ?? DEFAULT_SUCCESS_THRESHOLD;
  const pipeline = new RolloutPipeline(context, (t) => reader.accepts(t));
  const out: unknown[] = [];
  try {
    // Whole rollouts let go every 8 items: each young-generation collection copies those still held (at 64, the bytes
    // it copied on 20,000 trace folders were twice as many; at 4,096 the collector took a third of the CPU).
    for await (const batch of streamRollouts(reader, pipeline, signal, () => 8)) for (const t of batch) out.push(keep(t));
  } catch (error) {
    if (!stopped || signal.aborted) throw error;
    stopped.error = error;
  }
  for (const t of pipeline.finish()) out.push(keep(t));
  reader.skipped?.push(...pipeline.tooDeepLines());
  return out;
}

/** Every rollout of a local file or folder: saved transcripts (`--transcripts`, a signal check's) as they are, anything else through the pipeline. */
export async function readLocalRollouts(target: string, signal: AbortSignal): Promise<Transcript[]> {
  return (await savedTranscripts(target)) ?? readRollouts(localReader(target), signal);
}
