import type { Transcript } from '../../core/transcript/model';
import { RolloutPipeline } from '../../core/rollouts';
import type { RolloutReader } from './reader';

export type { RolloutReader } from './reader';
export { localReader, streamReader } from './files';
export { localTasks } from './dataset';
export { logGroupReader, jobStepClock } from './logs';
export { jobReader, type RolloutOrigin } from './job';
export { traceReader, traceRunOf, hasTraces, s3ArtifactReader, TRACE_LIMIT, type TraceRun } from './traces';

/** Every rollout a reader gives in one read, through the one pipeline, prepared with what the job tells. */
export async function readRollouts(reader: RolloutReader, signal: AbortSignal, job = {}): Promise<Transcript[]> {
  // What the caller says (--data, --success-threshold) wins over what the job tells.
  const context = { ...(await reader.context?.(signal)), ...job };
  const pipeline = new RolloutPipeline(context, (t) => reader.accepts(t));
  const out: Transcript[] = [];
  for await (const item of reader.read(signal)) {
    pipeline.feed(item);
    if (pipeline.lines % 4096 === 0) out.push(...pipeline.take());
  }
  out.push(...pipeline.finish());
  return out;
}
