import { setImmediate as nextTick } from 'node:timers/promises';
import { jobState, mlflowRunOf } from './jobs';
import type { Job } from './jobModel';
import { bentValues } from './healthPatterns';
import { evaluationValues, stepsDone, trainingStepValues, validationSteps, validationValues } from './mlflowMetrics';
import type { World } from './world';

type Values = Record<string, number>;
export type Family = 'training' | 'validation';

interface JobLedger {
  training: Map<number, Values>;
  validation: Map<number, Values>;
  evaluation?: Values;
}

/** Each step's values, computed once per emulator run: playing a step's rollouts is the expensive part (1,024 games a step). */
const ledgers = new WeakMap<Job, JobLedger>();

function ledgerOf(job: Job): JobLedger {
  let ledger = ledgers.get(job);
  if (!ledger) ledgers.set(job, (ledger = { training: new Map(), validation: new Map() }));
  return ledger;
}

/** Steps of a family logged by `now`: validation at 0, every val_every and the last step; training from step 1. */
export function loggedSteps(job: Job, now: number, family: Family): number[] {
  if (!jobState(job, now).transitions.some((t) => t.Status === 'Training')) return [];
  const done = stepsDone(job, now);
  if (family === 'validation') return validationSteps(job).filter((s) => s <= done);
  return Array.from({ length: done }, (_, i) => i + 1);
}

/** The values of one step, computed now unless already known. */
export function stepValues(job: Job, family: Family, step: number): Values {
  const known = ledgerOf(job)[family];
  let values = known.get(step);
  if (!values) {
    const played = family === 'training' ? trainingStepValues(job, step) : validationValues(job, step);
    known.set(step, (values = bentValues(job, family, step, played)));
  }
  return values;
}

/** Whether the step's values are known without computing. */
export function hasStepValues(job: Job, family: Family, step: number): boolean {
  return ledgerOf(job)[family].has(step);
}

/** A finished evaluation's values, computed once. */
export function evaluationLedger(job: Job): Values {
  const ledger = ledgerOf(job);
  return (ledger.evaluation ??= evaluationValues(job));
}

/** The first finished step of a job logging to MLflow whose values are not computed yet. */
function nextPending(world: World, now: number): { job: Job; family: Family; step: number } | undefined {
  for (const job of world.jobs.values()) {
    if (job.category !== 'AgentRFT' || job.created > now || !mlflowRunOf(job)) continue;
    for (const family of ['validation', 'training'] as const) {
      const step = loggedSteps(job, now, family).find((s) => !hasStepValues(job, family, s));
      if (step !== undefined) return { job, family, step };
    }
  }
  return undefined;
}

/**
 * Computes every finished step ahead of the first metrics request, one step per turn of the event loop so requests
 * are answered in between, then keeps up with running jobs as their steps finish. Stops when `signal` aborts.
 */
export async function keepLedger(world: World, signal: AbortSignal, idleMs = 1_000): Promise<void> {
  while (!signal.aborted) {
    const pending = nextPending(world, world.clock.now());
    if (pending) stepValues(pending.job, pending.family, pending.step);
    await (pending ? nextTick() : new Promise((resolve) => setTimeout(resolve, idleMs).unref()));
  }
}
