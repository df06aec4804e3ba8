import type { AwsClients } from '../aws/clients';
import type { MlflowClient } from '../aws/mlflow/client';
import type { JobDescription } from '../aws/sagemaker';
import { mlflowConfigOf } from '../core/jobs/document';
import { parseMlflowArn } from '../core/metrics/mlflow';
import { rolloutFromTrace, type TraceInfo } from '../core/rollouts';
import { mlflowClientFor } from './metrics/load';
import { locateRun } from './metrics/locate';
import type { LogReader } from './rolloutLogs';

// A job's rollouts from its MLflow run's traces (one per rollout, logged by the service): the source when the agent logs
// no rollout record, so a sample agent that logs nothing still replays.

/** Traces read per opening, newest first: the latest steps of a large run (a 100-step run has 102,400). */
export const TRACE_LIMIT = 25_000;

/** The MLflow run whose traces hold a job's rollouts. */
export interface TraceRun {
  client: Pick<MlflowClient, 'searchTraces' | 'batchGetTraces'>;
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

export interface TraceReading {
  running: (signal: AbortSignal) => Promise<boolean>;
  /** At most this many traces on the first read (default TRACE_LIMIT); follow mode reads every new one. */
  limit?: number;
  /** Told when the first read stopped at the limit. */
  onLimit?: (limit: number) => void;
  /** The service log's step lines: they date the rollouts of traces that name no step. */
  steps?: LogReader['steps'];
}

const startOf = (info: TraceInfo) => (info.request_time ? Date.parse(info.request_time) : NaN);

/**
 * Reads a run's traces as whole rollouts: the first read newest first (the latest step reaches the board first), page by
 * page, each page's traces fetched with their spans; follow mode then lists the traces started since the newest seen.
 */
export function traceReader(run: TraceRun, reading: TraceReading): LogReader {
  let newest: number | undefined;
  let seenAtNewest = new Set<string>();
  return {
    from: 'traces',
    async *read(signal) {
      const limit = reading.limit ?? TRACE_LIMIT;
      const first = newest === undefined;
      const query = first
        ? { experimentId: run.experimentId, runId: run.runId, limit }
        : // The boundary millisecond is listed again: traces already read there are skipped by id.
          { experimentId: run.experimentId, runId: run.runId, after: newest! - 1, oldestFirst: true };
      let read = 0;
      for await (const page of run.client.searchTraces(query, signal)) {
        const fresh = page.filter((info) => !(startOf(info) === newest && seenAtNewest.has(info.trace_id)));
        const whole = new Map(
          (
            await run.client.batchGetTraces(
              fresh.map((i) => i.trace_id),
              signal,
            )
          ).map((t) => [t.trace_info?.trace_id, t]),
        );
        for (const info of fresh) {
          const start = startOf(info);
          if (Number.isFinite(start) && (newest === undefined || start >= newest)) {
            if (start !== newest) seenAtNewest = new Set();
            newest = start;
            seenAtNewest.add(info.trace_id);
          }
          // A trace listed but gone by the time it is fetched is read from its previews.
          const rollout = rolloutFromTrace(whole.get(info.trace_id) ?? { trace_info: info });
          if (rollout) yield { rollout };
        }
        read += page.length;
      }
      if (first && read >= limit) reading.onLimit?.(limit);
      // A run without traces yet: follow mode starts from the beginning.
      newest ??= 0;
    },
    followable: reading.running,
    accepts: () => true,
    steps: reading.steps,
  };
}
