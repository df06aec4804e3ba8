import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc shows it: the start time tells a live process from a later one that reused its id. */
interface ProcessEntry {
  pid: number;
  ppid: number;
  started: string;
}

function entry(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces or ')': the fields after the last ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]), started: fields[19] };
  } catch {
    return undefined;
  }
}

function processes(): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  return names.filter((n) => /^\d+$/.test(n)).flatMap((n) => entry(Number(n)) ?? []);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/**
 * The processes a run started, on Linux: descendants of the root found in /proc, remembered as they are seen,
 * so a child that left the process group (`start_new_session=True`) or was orphaned is still killed at the end.
 */
export class ProcessTree {
  private readonly seen = new Map<number, string>();
  private readonly timer?: NodeJS.Timeout;
  private readonly rootStarted?: string;
  static readonly supported = process.platform === 'linux';

  constructor(
    private readonly root: number,
    everyMs = 200,
  ) {
    if (!ProcessTree.supported) return;
    this.rootStarted = entry(root)?.started;
    this.timer = setInterval(() => this.scan(), everyMs);
    this.timer.unref();
  }

  /** Records every current descendant of the root and returns them. */
  scan(): ProcessEntry[] {
    if (!ProcessTree.supported) return [];
    const all = processes();
    const children = new Map<number, ProcessEntry[]>();
    for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
    const found: ProcessEntry[] = [];
    const queue = [this.root];
    while (queue.length) {
      for (const child of children.get(queue.shift()!) ?? []) {
        found.push(child);
        queue.push(child.pid);
        this.seen.set(child.pid, child.started);
      }
    }
    return found;
  }

  /** Freezes the tree (so nothing forks away), then kills the root's group, every descendant, and every process seen before that still runs. */
  kill(): void {
    if (this.timer) clearInterval(this.timer);
    // Once reaped, the root's id may belong to someone else: only a root with its own start time is signalled.
    const rootAlive = !ProcessTree.supported || entry(this.root)?.started === this.rootStarted;
    if (ProcessTree.supported) {
      if (rootAlive) signal(this.root, 'SIGSTOP');
      // A descendant may fork between two scans: stop what is found until a scan finds nothing new.
      for (let stopped = -1, round = 0; stopped !== this.seen.size && round < 20; round++) {
        stopped = this.seen.size;
        for (const p of this.scan()) signal(p.pid, 'SIGSTOP');
      }
    }
    signal(-this.root, 'SIGKILL');
    for (const [pid, started] of this.seen) if (entry(pid)?.started === started) signal(pid, 'SIGKILL');
    if (rootAlive) signal(this.root, 'SIGKILL');
  }
}
