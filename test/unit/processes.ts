import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { ceiling } from '../host/lib/ceiling';

// What the containment tests look at: processes in /proc and ports on 127.0.0.1.

/** True while a process with this id exists and is not a zombie. */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits (polling, at most ceiling(8 s): a loaded machine reaps slower) for the process to be gone; false when it still runs. */
export async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + ceiling(8_000);
  while (running(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return !running(pid);
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Every process below root, from /proc. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // Gone between the listing and the read.
    }
  }
  const found: number[] = [];
  for (const queue = [root]; queue.length;) {
    for (const pid of children.get(queue.shift()!) ?? []) {
      found.push(pid);
      queue.push(pid);
    }
  }
  return found;
}

/** This test process's descendants whose command line names one of `needles`: what a run must not leave behind. Only
 * descendants, since mocha's other worker (or another checkout on a busy CI machine) runs agents of its own meanwhile. */
export function leftRunning(...needles: string[]): number[] {
  return descendants(process.pid).filter((pid) => needles.some((needle) => commandLine(pid).includes(needle)));
}

/** True when nothing accepts a connection on 127.0.0.1:port. */
export function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}
