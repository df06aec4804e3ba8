import type { ChildProcess } from 'node:child_process';
import { ProcessTree } from './processTree';
import {
  DEFAULT_TIMEOUT_SECONDS,
  MAX_TIMEOUT_SECONDS,
  parseHarnessOutput,
  type HarnessRequest,
  type HarnessResponse,
  type HarnessRunFailure,
  type TranscriptHarnessRequest,
} from '../../core/reward/protocol';

interface HarnessRun {
  /** The interpreter: a path or a command on PATH. */
  python: string;
  /** Absolute path of `reward_harness.py` or `transcript_reward.py`. */
  script: string;
  request: HarnessRequest | TranscriptHarnessRequest;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with each chunk the user's code (or Python) writes to stderr or stdout. */
  onStderr?: (text: string) => void;
}

interface HarnessOutcome {
  response: HarnessResponse | HarnessRunFailure;
  stderr: string;
  /** Process id of the harness, for the tests that prove it is gone. */
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

/** Kills the harness and everything it started: its process group on POSIX, and on Linux also the descendants that left it. */
function killTree(child: ChildProcess, tree: ProcessTree | undefined): void {
  if (child.pid === undefined) return;
  if (process.platform === 'win32') {
    if (child.exitCode === null)
      childProcess()
        .spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' })
        .on('error', () => child.kill());
    return;
  }
  if (tree) return tree.kill();
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is already empty.
  }
}

/** Runs the reward harness once: request on stdin, one result line back, killed on timeout or abort. */
export function runHarness(run: HarnessRun): Promise<HarnessOutcome> {
  // setTimeout fires at once past 2^31 ms: the run is clamped to a sane maximum instead.
  const timeoutMs = Math.min(run.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000, MAX_TIMEOUT_SECONDS * 1000);
  return new Promise((resolve) => {
    const stdout = new KeptOutput();
    const stderr = new KeptOutput();
    let stopped: HarnessRunFailure | undefined;
    let settled = false;
    const child = childProcess().spawn(run.python, [run.script], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      env: { ...process.env, PYTHONIOENCODING: 'utf-8', PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' },
      windowsHide: true,
    });
    const tree = child.pid !== undefined && ProcessTree.supported ? new ProcessTree(child.pid) : undefined;
    const finish = (response: HarnessOutcome['response']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      resolve({ response, stderr: stderr.shown, pid: child.pid });
    };
    const stop = (failure: HarnessRunFailure) => {
      stopped ??= failure;
      killTree(child, tree);
    };
    const seconds = timeoutMs / 1000;
    const timer = setTimeout(
      () =>
        stop({
          ok: false,
          error: 'timeout',
          message: `The reward code did not finish within ${seconds} s and was stopped: an endless loop, or slow work at import? If it is just slow, allow more time (mtrl.reward.timeoutSeconds, or --timeout).`,
        }),
      timeoutMs,
    );
    const onAbort = () => stop({ ok: false, error: 'cancelled', message: 'The reward preview was cancelled.' });
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
    // Processes the user's code left behind would hold the pipes open; the preview owns them, so they go too.
    child.on('exit', () => killTree(child, tree));
    child.on('close', (code, signal) => {
      if (stopped) return finish(stopped);
      if (stderr.dropped) run.onStderr?.(stderr.shown.slice(stderr.text.length));
      const response = parseHarnessOutput(stdout.text);
      if (response) return finish(response);
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const last = stderr.text.trim().split(/\r?\n/).pop();
      finish({ ok: false, error: 'crashed', message: `The reward harness ${how} without a result${last ? `: ${last}` : ''}.` });
    });
    child.stdin.on('error', () => {
      // The child may exit before reading its request; 'close' reports why.
    });
    child.stdin.end(JSON.stringify(run.request));
  });
}
