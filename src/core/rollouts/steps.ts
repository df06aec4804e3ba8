import type { StepEvidence, Transcript } from '../transcript/model';

/**
 * The service-log line this reads as "step N of M finished": `Step N/M` anywhere in the message (the emulator's line;
 * the real service's log format is unpublished). Other lines give no step, never an estimate.
 */
const STEP_LINE = /\bStep (\d+)\/(\d+)\b/;
/** DescribeJob's status message while training: `Training in progress, step N/M: …` (seen in real runs). */
const STATUS_STEP = /Training in progress, step (\d+)\/(\d+)/;

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

/** Step ends from status transitions: the first time a message names step N, step N − 1 had ended. */
export function boundariesFromStatus(transitions: readonly { message?: string; start?: number }[]): StepBoundary[] {
  const ends = new Map<number, StepBoundary>();
  for (const { message, start } of transitions) {
    const m = message && start !== undefined ? STATUS_STEP.exec(message) : null;
    if (!m) continue;
    const step = Number(m[1]) - 1;
    const of = Number(m[2]);
    if (step >= 1 && of > step && !ends.has(step)) ends.set(step, { step, end: start!, of });
  }
  return [...ends.values()];
}

/** Step ends from MLflow per-step metric points: a step's metrics are logged when it ends (the latest point per step). */
export function boundariesFromMetrics(points: readonly { step: number; timestamp: number }[], of?: number): StepBoundary[] {
  const ends = new Map<number, number>();
  for (const p of points) if (p.step >= 1 && !(ends.get(p.step)! >= p.timestamp)) ends.set(p.step, p.timestamp);
  return [...ends].map(([step, end]) => ({ step, end, ...(of !== undefined ? { of } : {}) }));
}

/** Dates rollouts into steps from step ends: a rollout belongs to the first step that ended at or after it. */
export class StepClock {
  private readonly ends: StepBoundary[];

  /** `evidence`: what the boundaries came from (the service log's step lines, or times from status messages or metrics). */
  constructor(
    boundaries: readonly StepBoundary[],
    readonly evidence: StepEvidence = 'log',
  ) {
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
export function assignSteps(rollouts: readonly Transcript[], clock: StepClock): number {
  if (!clock.size) return 0;
  let n = 0;
  for (const r of rollouts) {
    if (r.step !== undefined || r.time === undefined) continue;
    const step = clock.stepAt(r.time);
    if (step === undefined) continue;
    r.step = step;
    r.stepFrom = clock.evidence;
    n++;
  }
  return n;
}
