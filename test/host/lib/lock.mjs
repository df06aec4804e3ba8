// A cross-process lock as a directory holding the owner's pid, so concurrent runs (several engineers, CI) serialize.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Removes a lock its dead owner left. Renamed aside first, in one step, and removed only if it still names that owner:
 * two runs that both found it stale never remove the fresh lock the quicker one took meanwhile.
 */
function takeOver(dir, owner) {
  const aside = `${dir}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(dir, aside);
  } catch {
    return; // Another run took it over first.
  }
  let found = NaN;
  try {
    found = Number(readFileSync(path.join(aside, 'pid'), 'utf8'));
  } catch {
    // No pid yet: a fresh lock, given back below.
  }
  if (found === owner) rmSync(aside, { recursive: true, force: true });
  else
    try {
      renameSync(aside, dir);
    } catch {
      rmSync(aside, { recursive: true, force: true });
    }
}

/** Waits for the lock at `dir`, takes over one left by a dead process, returns a release function. */
export async function acquireLock(dir, { label = dir, timeoutMs = 30 * 60_000, onWait } = {}) {
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      mkdirSync(dir, { recursive: false });
      writeFileSync(path.join(dir, 'pid'), String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(path.join(dir, 'pid'), 'utf8'));
    } catch {
      // The owner may be between mkdir and writing its pid: give it a moment before judging.
    }
    if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
      takeOver(dir, owner);
      continue;
    }
    if (Date.now() - started > timeoutMs)
      throw new Error(`Timed out waiting for ${label} (held by pid ${owner}); remove ${dir} if that process is gone.`);
    if (!told) {
      onWait?.(`waiting for ${label} (pid ${owner})`);
      told = true;
    }
    await sleep(500);
  }
}
