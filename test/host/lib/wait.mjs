// The one way the UI checks wait: for a condition, never for a time; every ceiling scales with the machine's load.
import { setTimeout as sleep } from 'node:timers/promises';
import { tsImport } from 'tsx/esm/api';

/** `ceiling(ms)`: the most to wait for what takes `ms` on an idle machine, stretched by the load (test/host/lib/ceiling.ts). */
export const { ceiling } = await tsImport('./ceiling.ts', import.meta.url);

/**
 * Polls `condition` (sync or async) until it returns a truthy value, and returns that value. A condition that throws
 * counts as not met yet (a frame detached while it was read); the last error is in the message if time runs out.
 */
export async function until(what, condition, { timeoutMs = ceiling(30_000), everyMs = 100 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const why = lastError ? ` (last: ${String(lastError.message ?? lastError).split('\n')[0]})` : '';
      throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${why}`);
    }
    await sleep(everyMs);
  }
}

/** The first frame of the page in which `locate(frame)` finds an element: webviews are frames inside the workbench. */
export function frameShowing(page, what, locate, options) {
  return until(
    what,
    async () => {
      for (const frame of page.frames()) {
        if (
          await locate(frame)
            .count()
            .catch(() => 0)
        )
          return frame;
      }
      return undefined;
    },
    options,
  );
}
