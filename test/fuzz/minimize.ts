// Shrinks a failing input while it still fails the same way, so a regression fixture shows the cause and little else.
import type { CaseReply, CaseRequest, Watchdog } from './watchdog';

/** Runs a case under the watchdog at most this many times per failure. */
const MAX_TRIES = 400;

/** Whether two replies are the same failure: the same kind, and for exceptions the same first line. */
function same(a: CaseReply, b: CaseReply): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind !== 'exception' || b.kind !== 'exception') return true;
  return a.detail.split('\n')[0] === b.detail.split('\n')[0];
}

/** Removes ever smaller pieces of `request.bytes` while the reply stays the same failure (hangs are not shrunk: each try costs the budget). */
export async function minimize(watchdog: Watchdog, request: CaseRequest, failure: CaseReply): Promise<Uint8Array> {
  let bytes = request.bytes;
  let tries = 0;
  for (let size = bytes.length >> 1; size >= 1 && tries < MAX_TRIES; size >>= 1) {
    for (let at = 0; at < bytes.length && tries < MAX_TRIES;) {
      const smaller = new Uint8Array(bytes.length - Math.min(size, bytes.length - at));
      smaller.set(bytes.subarray(0, at));
      smaller.set(bytes.subarray(at + size), at);
      tries++;
      if (same(await watchdog.run({ ...request, bytes: smaller }), failure)) bytes = smaller;
      else at += size;
    }
  }
  return bytes;
}
