import type { JobContext, ReadItem, SkippedLine } from '../../core/rollouts';
import type { Transcript } from '../../core/transcript/model';

/** Where a view's rollouts come from: the one interface every source (file, log group, job log, MLflow traces) implements. */
export interface RolloutReader {
  /** What it reads: log lines, MLflow traces, or local files (traces or lines, format sniffed). */
  from: 'log' | 'traces' | 'file';
  /** What was read since the last call (follow mode polls again). */
  read(signal: AbortSignal): AsyncIterable<ReadItem>;
  /** The same items in batches, when the source reads many at once (a folder of files): one await per batch, not per item. */
  readBatches?(signal: AbortSignal): AsyncIterable<readonly ReadItem[]>;
  /** Whether more may come (a running job): follow mode polls `read` again. */
  followable(signal: AbortSignal): Promise<boolean>;
  /** Whether a rollout belongs here: a runtime's log also holds other jobs' rollouts. */
  accepts(transcript: Transcript): boolean;
  /** What the job tells about its rollouts (step ends, training data, success threshold), read again in follow mode. */
  context?(signal: AbortSignal): Promise<JobContext>;
  /** Lines of the last read not read: too long (a file's; a log event is far below the line cap) or too deep (added by readRollouts). */
  readonly skipped?: SkippedLine[];
  /** Sentences on what else was left out (trace artifacts S3 would not give). */
  readonly notes?: string[];
}
