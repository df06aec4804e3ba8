import { formatDuration, type StatusTransition } from './timeline';

/** What the service's status messages say that the status alone does not: waiting for capacity, restarts, the step's phase. */
export interface StatusNotes {
  /** How long the job has waited for capacity, while its current message says so. */
  waitingMs?: number;
  restarts: number;
  /** The phase of the current step (`CheckpointStart` from "Training in progress, step 10/10: CheckpointStart"). */
  phase?: string;
}

const WAITING = /waiting for capacity/i;
const RESTART = /^Restarting job\b/i;
const STEP_PHASE = /\bstep \d+\/\d+:\s*(\w+)/i;

/** The notes of a job's status transitions, read from their messages as a real run words them. */
export function statusNotes(transitions: readonly StatusTransition[] | undefined, status: string, now: Date): StatusNotes {
  const all = transitions ?? [];
  const restarts = all.filter((t) => RESTART.test(t.StatusMessage ?? '')).length;
  const last = all[all.length - 1];
  const phase = status === 'InProgress' ? STEP_PHASE.exec(last?.StatusMessage ?? '')?.[1] : undefined;
  let waitingMs: number | undefined;
  if (status === 'InProgress' && WAITING.test(last?.StatusMessage ?? '')) {
    // Consecutive waiting transitions count as one wait.
    let first = all.length - 1;
    while (first > 0 && WAITING.test(all[first - 1].StatusMessage ?? '')) first--;
    const since = all[first].StartTime;
    waitingMs = since ? Math.max(0, now.getTime() - since.getTime()) : undefined;
  }
  return { waitingMs, restarts, phase };
}

/** "waiting for capacity 12m 05s", "restarted 2×": the notes as row facts, most important first. */
export function statusNoteTexts(notes: StatusNotes): string[] {
  const out: string[] = [];
  if (notes.waitingMs !== undefined) out.push(`waiting for capacity ${formatDuration(notes.waitingMs)}`);
  if (notes.restarts) out.push(`restarted ${notes.restarts}×`);
  return out;
}
