import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { HarnessRunFailure } from '../../core/reward/protocol';
import { interpreterOf } from './interpreter';

// One Python script run with the user's code inside: request on stdin, one result line back, user output kept
// (bounded) from stderr, and everything the user's code started killed on timeout, cancel or exit (contained_run.py).

/** Why a run ended without a result: the same failures as the reward harness's. */
export type ContainedFailure = HarnessRunFailure;

export interface ContainedRun<R> {
  /** The interpreter: a path or a command on PATH. */
  python: string;
  /** Absolute path of the script under src/python. */
  script: string;
  request: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called with each chunk the user's code (or Python) writes to stderr or stdout. */
  onStderr?: (text: string) => void;
  /** The result line in the script's stdout, or undefined when there is none. */
  parse(stdout: string): R | undefined;
  /** The sentences for a run stopped at its deadline, cancelled, or ended without a result (`how` says how). */
  say: { timeout: string; cancelled: string; crashed(how: string): string };
  /** Extra environment variables for the script. */
  env?: Record<string, string>;
}

export interface ContainedOutcome<R> {
  response: R | ContainedFailure;
  stderr: string;
  /** Process id of the script, for the tests that prove it is gone. */
  pid?: number;
}

/** Output kept from each stream; the rest is counted, so a reward that prints without end cannot exhaust memory. */
export const KEPT_OUTPUT_BYTES = 1024 * 1024;

/** The first KEPT_OUTPUT_BYTES of a stream, and how many bytes came after. */
class KeptOutput {
  text = '';
  dropped = 0;

  add(chunk: string): string {
    const room = KEPT_OUTPUT_BYTES - this.text.length;
    const kept = room > 0 ? chunk.slice(0, room) : '';
    this.text += kept;
    this.dropped += Buffer.byteLength(chunk.slice(kept.length));
    return kept;
  }

  /** The kept text, with a last line saying how much was left out. */
  get shown(): string {
    return this.dropped ? `${this.text}\n… ${this.dropped.toLocaleString('en')} more bytes of output not kept.\n` : this.text;
  }
}

/** node:child_process, loaded with the first run, not at activation. */
function childProcess(): typeof import('node:child_process') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('node:child_process') as typeof import('node:child_process');
}

/** After SIGTERM the supervisor kills and reaps everything in milliseconds; past this it is killed itself. */
const STOP_GRACE_MS = 3000;
/** After the supervisor exits, output still in the pipes is read for this long; a pipe something else holds is then let go. */
const DRAIN_MS = 1000;

const POSIX = process.platform !== 'win32';

/** Supervisors still running: told to stop when this process exits (on Linux they also learn it from the kernel). */
const live = new Set<ChildProcess>();
let exitHooked = false;

function stopOnExit(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const c of live) c.kill('SIGTERM');
  });
}

/** Stops the run: on POSIX the supervisor kills everything the script started; on Windows the tree is killed with taskkill. */
function terminate(child: ChildProcess): NodeJS.Timeout | undefined {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return undefined;
  if (!POSIX) {
    childProcess()
      .spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' })
      .on('error', () => child.kill());
    return undefined;
  }
  child.kill('SIGTERM');
  return setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }, STOP_GRACE_MS).unref();
}

/**
 * The interpreter's arguments: on POSIX the script runs under contained_run.py, which sits beside it. The supervisor
 * needs only the standard library: `-S` spares it the site packages' start-up (0.1 s of CPU per run here, one per
 * rollout); the script it starts gets them as usual.
 */
function scriptArguments(script: string): string[] {
  return POSIX ? ['-S', path.join(path.dirname(script), 'contained_run.py'), script] : [script];
}

/**
 * Runs the script once: request on stdin, one result line back. The run ends when the process exits, not when its
 * pipes close (a daemon the user's code left could hold them), and nothing it started survives it.
 */
export async function runContained<R>(run: ContainedRun<R>): Promise<ContainedOutcome<R>> {
  return runWith({ ...run, python: await interpreterOf(run.python) });
}

function runWith<R>(run: ContainedRun<R>): Promise<ContainedOutcome<R>> {
  return new Promise((resolve) => {
    const stdout = new KeptOutput();
    const stderr = new KeptOutput();
    let stopped: ContainedFailure | undefined;
    let settled = false;
    let backstop: NodeJS.Timeout | undefined;
    let drain: NodeJS.Timeout | undefined;
    const child = childProcess().spawn(run.python, scriptArguments(run.script), {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: POSIX,
      env: { ...process.env, ...run.env, PYTHONIOENCODING: 'utf-8', PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' },
      windowsHide: true,
    });
    stopOnExit(child);
    const finish = (response: ContainedOutcome<R>['response']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(backstop);
      clearTimeout(drain);
      run.signal?.removeEventListener('abort', onAbort);
      resolve({ response, stderr: stderr.shown, pid: child.pid });
    };
    const stop = (failure: ContainedFailure) => {
      stopped ??= failure;
      backstop ??= terminate(child);
    };
    const ended = (code: number | null, signal: NodeJS.Signals | null) => {
      if (stopped) return finish(stopped);
      if (stderr.dropped) run.onStderr?.(stderr.shown.slice(stderr.text.length));
      const response = run.parse(stdout.text);
      if (response) return finish(response);
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const last = stderr.text.trim().split(/\r?\n/).pop();
      finish({ ok: false, error: 'crashed', message: `${run.say.crashed(how)}${last ? `: ${last}` : ''}.` });
    };
    const timer = setTimeout(() => stop({ ok: false, error: 'timeout', message: run.say.timeout }), run.timeoutMs);
    const onAbort = () => stop({ ok: false, error: 'cancelled', message: run.say.cancelled });
    if (run.signal?.aborted) onAbort();
    run.signal?.addEventListener('abort', onAbort);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.add(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      const kept = stderr.add(chunk);
      if (kept) run.onStderr?.(kept);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      const message =
        error.code === 'ENOENT'
          ? `Python was not found at '${run.python}'. Select an interpreter with the Python extension or set mtrl.python.path.`
          : `Python could not start (${error.message}).`;
      finish({ ok: false, error: 'spawn', message });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(backstop);
      const letGo = () => {
        if (settled) return;
        child.stdout.destroy();
        child.stderr.destroy();
        ended(code, signal);
      };
      // Timers run before reads in a turn of the event loop: this exit may be reaped (by another child's SIGCHLD) before
      // its output is read, and after a stall of DRAIN_MS (a loaded machine) the output would be dropped unread.
      // setImmediate runs after the turn's reads.
      drain = setTimeout(() => setImmediate(letGo), DRAIN_MS);
    });
    child.on('close', ended);
    child.stdin.on('error', () => {
      // The child may exit before reading its request; 'close' reports why.
    });
    child.stdin.end(JSON.stringify(run.request));
  });
}
