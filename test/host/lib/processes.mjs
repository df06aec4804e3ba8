// Every process a run starts is tracked here and killed with its whole tree on exit, failure, timeout or Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { constants, setPriority } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

const started = new Set();
let stopping = false;

/** Moves a started process (and what it starts after) to the lowest CPU priority: it takes what the rest leaves idle. */
export function lowerPriority(pid) {
  try {
    if (pid) setPriority(pid, constants.priority.PRIORITY_LOW);
  } catch {
    // A system that refuses leaves it at the normal priority: slower beside the rest, never wrong.
  }
}

/** Starts a process in its own process group and remembers it for `stopAll`. */
export function startProcess(cmd, args, options = {}) {
  // After stopAll (Ctrl-C) nothing new may start, or it would outlive the run.
  if (stopping) throw new Error('stopping: not starting another process');
  const child = spawn(cmd, args, { ...options, detached: true });
  started.add(child);
  child.on('exit', () => started.delete(child));
  return child;
}

/** The pids below `pid` (children first found via ps), so servers' detached helpers die too. */
function descendants(pid) {
  const ps = spawnSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' });
  const children = new Map();
  for (const line of (ps.stdout ?? '').split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (!child) continue;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(child);
  }
  const found = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function signal(pid, sig) {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** Kills a started process's group and every descendant: TERM, then KILL after a grace period. */
export async function stopProcess(child, graceMs = 3000) {
  if (!child.pid) return;
  const pids = [child.pid, ...descendants(child.pid)];
  signal(-child.pid, 'SIGTERM');
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some((pid) => signal(pid, 0))) await sleep(100);
  signal(-child.pid, 'SIGKILL');
  for (const pid of pids) signal(pid, 'SIGKILL');
  started.delete(child);
}

export async function stopAll() {
  stopping = true;
  await Promise.all([...started].map((child) => stopProcess(child)));
}

/** On Ctrl-C or SIGTERM: run `cleanup` once, then exit with the conventional code. */
export function cleanUpOnSignals(cleanup) {
  let done = false;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, async () => {
      if (done) return;
      done = true;
      await cleanup();
      process.exit(sig === 'SIGINT' ? 130 : 143);
    });
  }
}

/** Resolves with the first stdout/stderr match of `pattern`, rejects when the process exits first or on timeout. */
export function waitForOutput(child, pattern, { timeoutMs, what }) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => finish(new Error(`${what} did not start within ${timeoutMs / 1000} s; last output:\n${seen.slice(-2000)}`)),
      timeoutMs,
    );
    const onData = (chunk) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (match) finish(undefined, match);
    };
    const onExit = (code) => finish(new Error(`${what} exited with ${code} before it was ready; output:\n${seen.slice(-2000)}`));
    function finish(error, match) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(match);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', onExit);
  });
}
