// How long a test (host or unit) may wait for something that should happen: a ceiling (waits end as soon as the condition holds),
// scaled by how loaded the machine is, so a busy machine (CI runs side by side) never turns a slow answer into a failure.
import os from 'node:os';

/** The margin kept on an idle machine, and the most a wait is stretched (a real hang must still end). */
const IDLE_FACTOR = 2;
const MOST_FACTOR = 8;
/** Set by the driver at the run's start and inherited by the VS Code server: the load when the run began. */
export const LOAD_AT_START_VARIABLE = 'MTRL_HOST_LOAD_FACTOR';

/** Runnable processes per core (the 1-minute load average), never below the idle margin nor above the cap. */
export function loadFactor(load = os.loadavg()[0], cores = os.availableParallelism()): number {
  return Math.min(MOST_FACTOR, Math.max(IDLE_FACTOR, load / Math.max(1, cores)));
}

/** The factor measured at the run's start (the driver's), or now when no driver set it. */
function startFactor(): number {
  const measured = Number(process.env[LOAD_AT_START_VARIABLE]);
  return Number.isFinite(measured) && measured > 0 ? measured : loadFactor();
}

/** The ceiling of a wait that `ms` covers on an idle machine: stretched by the larger of the load at the start and now. */
export function ceiling(ms: number): number {
  return Math.round(ms * Math.max(startFactor(), loadFactor()));
}
