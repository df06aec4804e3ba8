import type { SweepRun } from './sweep';

/** What the service says of a run's job; absent when no job of that name exists. */
export interface RunJob {
  status: string;
  failureReason?: string;
}

/** The user's say over a sweep, kept by the editor across reloads; the service's state is read afresh each time. */
export type SweepControl = 'running' | 'paused' | 'cancelled';

export type QueueDecision =
  | { kind: 'launch'; run: SweepRun }
  | { kind: 'wait'; reason: string; jobName?: string }
  | { kind: 'paused' }
  | { kind: 'cancelled' }
  | { kind: 'done' };

export interface SweepProgress {
  done: number;
  running: number;
  waiting: number;
  failed: number;
  total: number;
}

const ACTIVE = new Set(['InProgress', 'Stopping']);
const ENDED = new Set(['Completed', 'Failed', 'Stopped', 'Deleting', 'DeleteFailed']);

/** Counts of the sweep's runs by where they stand; failed and stopped runs count as failed, not as waiting. */
export function sweepProgress(runs: readonly SweepRun[], jobs: ReadonlyMap<string, RunJob>): SweepProgress {
  const progress: SweepProgress = { done: 0, running: 0, waiting: 0, failed: 0, total: runs.length };
  for (const run of runs) {
    const status = jobs.get(run.jobName)?.status;
    if (status === undefined) progress.waiting++;
    else if (status === 'Completed') progress.done++;
    else if (ACTIVE.has(status)) progress.running++;
    else progress.failed++;
  }
  return progress;
}

/** "1/4 done · 1 running · 2 waiting", with the failed or stopped runs when there are some. */
export function progressText(p: SweepProgress): string {
  return `${p.done}/${p.total} done · ${p.running} running · ${p.waiting} waiting${p.failed ? ` · ${p.failed} failed` : ''}`;
}

/**
 * The queue's next step. The service runs one evaluation at a time per account, so nothing launches while any evaluation
 * (the sweep's or another) is in progress; a run whose job exists in any state is never launched again.
 */
export function nextStep(
  runs: readonly SweepRun[],
  jobs: ReadonlyMap<string, RunJob>,
  control: SweepControl,
  runningElsewhere?: string,
): QueueDecision {
  if (control === 'cancelled') return { kind: 'cancelled' };
  const active = runs.find((run) => ACTIVE.has(jobs.get(run.jobName)?.status ?? ''));
  if (active) return { kind: 'wait', reason: `${active.jobName} is running`, jobName: active.jobName };
  const next = runs.find((run) => !jobs.has(run.jobName));
  if (!next)
    return runs.every((run) => ENDED.has(jobs.get(run.jobName)?.status ?? ''))
      ? { kind: 'done' }
      : { kind: 'wait', reason: 'waiting for the service' };
  if (control === 'paused') return { kind: 'paused' };
  if (runningElsewhere)
    return { kind: 'wait', reason: `${runningElsewhere} is running (one evaluation at a time per account)`, jobName: runningElsewhere };
  return { kind: 'launch', run: next };
}
