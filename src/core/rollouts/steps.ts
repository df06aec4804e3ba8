import type { Rollout } from './record';

/**
 * The service-log line this reads as "step N of M finished": `Step N/M` anywhere in the message. The real
 * service's log format is unpublished; this is the emulator's line. Other lines give no step, never a guess.
 */
const STEP_LINE = /\bStep (\d+)\/(\d+)\b/;

/** A training step and the time (epoch ms) its end was logged. */
export interface StepBoundary {
  step: number;
  end: number;
  /** Steps the run will have, when the line says (`Step N/M`). */
  of?: number;
}

export function parseStepLine(message: string, timestamp: number): StepBoundary | undefined {
  const m = STEP_LINE.exec(message);
  if (!m) return undefined;
  const step = Number(m[1]);
  const of = Number(m[2]);
  return step >= 1 && of >= step ? { step, end: timestamp, of } : undefined;
}

/** Dates rollouts into steps from the service log's step lines: a rollout belongs to the first step that ended at or after it. */
export class StepClock {
  private readonly ends: StepBoundary[];

  constructor(boundaries: readonly StepBoundary[]) {
    this.ends = [...boundaries].sort((a, b) => a.step - b.step);
  }

  get size(): number {
    return this.ends.length;
  }

  /** The last finished step, or 0 before the first. */
  get lastStep(): number {
    return this.ends.at(-1)?.step ?? 0;
  }

  /** Start time of a step (the previous step's end), when known. */
  startOf(step: number): number | undefined {
    return this.ends.find((b) => b.step === step - 1)?.end;
  }

  /** The step a rollout completed at `time` ran in; after the last logged end, the next step while the run has more; else undefined. */
  stepAt(time: number): number | undefined {
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ends[mid].end < time) lo = mid + 1;
      else hi = mid;
    }
    if (lo < this.ends.length) return this.ends[lo].step;
    const last = this.ends.at(-1);
    return last && last.of !== undefined && last.step < last.of ? last.step + 1 : undefined;
  }
}

/** Gives each rollout without a better step the one the clock dates it to; returns how many got one. */
export function assignSteps(rollouts: readonly Rollout[], clock: StepClock): number {
  if (!clock.size) return 0;
  let n = 0;
  for (const r of rollouts) {
    if (r.step !== undefined || r.time === undefined) continue;
    const step = clock.stepAt(r.time);
    if (step === undefined) continue;
    r.step = step;
    r.stepFrom = 'log';
    n++;
  }
  return n;
}
