import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { descendants, running } from '../../test/unit/processes';

// Runs a command and watches its whole process tree in /proc: the peak resident memory of each process (VmHWM, a
// high-water mark, so a poll every 50 ms misses no peak of a process that lives past one poll), and, after it ends,
// which of those processes still run and which of their listening sockets are still open.

/** One process seen below the command. */
export interface Seen {
  pid: number;
  /** Its executable and first argument, e.g. `node dist/cli.js`, `python3 …/contained_run.py`. */
  name: string;
  peakKb: number;
}

export interface Watched {
  code: number | null;
  signal: NodeJS.Signals | null;
  seconds: number;
  stdout: string;
  stderr: string;
  /** The largest peak of any process in the tree, reaped or not, from the kernel (`/usr/bin/time -f %M`); 0 without it. */
  treePeakKb: number;
  /** CPU time (user + system) of the tree's reaped processes, from `/usr/bin/time`: apart from the machine's load. */
  cpuSeconds: number;
  processes: Seen[];
  /** Processes of the tree still running once the command ended (and the bench killed them). */
  left: Seen[];
  /** Listening TCP sockets the tree opened that were still open once the command ended. */
  portsLeft: number;
}

const TIME = '/usr/bin/time';

function peakKbOf(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function nameOf(pid: number): string {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return argv
      .slice(0, 2)
      .map((a) => (a.length > 40 ? `…${a.slice(-38)}` : a))
      .join(' ');
  } catch {
    return '';
  }
}

function socketsOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? []].flat();
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/** Inodes of the TCP sockets now listening (state 0A) on this machine. */
function listening(): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6'])
    try {
      for (const row of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const cols = row.trim().split(/\s+/);
        if (cols[3] === '0A') inodes.add(cols[9]);
      }
    } catch {
      // No IPv6 table.
    }
  return inodes;
}

/**
 * Runs `argv` (under `/usr/bin/time` when present), polling its process tree every 50 ms; kills the tree at `guardMs`
 * so a bound broken by far cannot hang the bench. Every process of the tree still running after the end is killed.
 */
export async function watch(argv: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; guardMs: number }): Promise<Watched> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-bench-time-'));
  const timeFile = path.join(dir, 'peak');
  const timed = existsSync(TIME);
  const [file, ...args] = timed ? [TIME, '-f', '%M %U %S', '-o', timeFile, ...argv] : argv;
  const started = performance.now();
  const child = spawn(file, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const seen = new Map<number, Seen>();
  const sockets = new Set<string>();
  const poll = () => {
    for (const pid of descendants(child.pid!)) {
      const known = seen.get(pid) ?? { pid, name: nameOf(pid), peakKb: 0 };
      // The name after exec: a fork's first poll may still show its parent's.
      known.name = nameOf(pid) || known.name;
      known.peakKb = Math.max(known.peakKb, peakKbOf(pid));
      seen.set(pid, known);
      for (const inode of socketsOf(pid)) sockets.add(inode);
    }
  };
  const timer = setInterval(poll, 50);
  const guard = setTimeout(() => {
    for (const pid of [...descendants(child.pid!), child.pid!]) killQuietly(pid);
  }, options.guardMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('exit', (c, s) => resolve([c, s])),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  clearTimeout(guard);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const processes = [...seen.values()];
  const left = processes.filter((p) => running(p.pid));
  const open = listening();
  const portsLeft = [...sockets].filter((inode) => open.has(inode)).length;
  for (const p of left) killQuietly(p.pid);
  // The last line; a line before it says how the command ended, when not with 0.
  const [peak = 0, user = 0, system = 0] =
    timed && existsSync(timeFile) ? (/(\d+) ([\d.]+) ([\d.]+)\s*$/.exec(readFileSync(timeFile, 'utf8'))?.slice(1).map(Number) ?? []) : [];
  rmSync(dir, { recursive: true, force: true });
  return { code, signal, seconds, stdout, stderr, treePeakKb: peak, cpuSeconds: user + system, processes, left, portsLeft };
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
