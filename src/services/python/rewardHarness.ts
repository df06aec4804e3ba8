import { spawn, type ChildProcess } from 'node:child_process';
import { DEFAULT_TIMEOUT_SECONDS, parseHarnessOutput, type HarnessRequest, type HarnessResponse, type HarnessRunFailure } from '../../core/reward/protocol';

export interface HarnessRun {
  /** The interpreter: a path or a command on PATH. */
  python: string;
  /** Absolute path of `reward_harness.py`. */
  script: string;
  request: HarnessRequest;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with each chunk the user's code (or Python) writes to stderr or stdout. */
  onStderr?: (text: string) => void;
}

export interface HarnessOutcome {
  response: HarnessResponse | HarnessRunFailure;
  stderr: string;
  /** Process id of the harness, for the tests that prove it is gone. */
  pid?: number;
}

/** Kills the harness and everything it started: it leads its own process group on POSIX. */
function killTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  if (process.platform === 'win32') {
    if (child.exitCode === null) spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' }).on('error', () => child.kill());
    return;
  }
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is already empty.
  }
}

/** Runs the reward harness once: request on stdin, one result line back, killed on timeout or abort. */
export function runHarness(run: HarnessRun): Promise<HarnessOutcome> {
  const timeoutMs = run.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000;
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let stopped: HarnessRunFailure | undefined;
    let settled = false;
    const child = spawn(run.python, [run.script], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      env: { ...process.env, PYTHONIOENCODING: 'utf-8', PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' },
      windowsHide: true,
    });
    const finish = (response: HarnessOutcome['response']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      resolve({ response, stderr, pid: child.pid });
    };
    const stop = (failure: HarnessRunFailure) => {
      stopped ??= failure;
      killTree(child);
    };
    const seconds = timeoutMs / 1000;
    const timer = setTimeout(
      () => stop({ ok: false, error: 'timeout', message: `The reward code did not finish within ${seconds} s and was stopped: an endless loop, or slow work at import? If it is just slow, allow more time (mtrl.reward.timeoutSeconds, or --timeout).` }),
      timeoutMs,
    );
    const onAbort = () => stop({ ok: false, error: 'cancelled', message: 'The reward preview was cancelled.' });
    if (run.signal?.aborted) onAbort();
    run.signal?.addEventListener('abort', onAbort);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      run.onStderr?.(chunk);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      const message =
        error.code === 'ENOENT'
          ? `Python was not found at '${run.python}'. Select an interpreter with the Python extension or set mtrl.python.path.`
          : `Python could not start (${error.message}).`;
      finish({ ok: false, error: 'spawn', message });
    });
    // Processes the user's code left behind would hold the pipes open; the preview owns them, so they go too.
    child.on('exit', () => killTree(child));
    child.on('close', (code, signal) => {
      if (stopped) return finish(stopped);
      const response = parseHarnessOutput(stdout);
      if (response) return finish(response);
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const last = stderr.trim().split(/\r?\n/).pop();
      finish({ ok: false, error: 'crashed', message: `The reward harness ${how} without a result${last ? `: ${last}` : ''}.` });
    });
    child.stdin.on('error', () => {
      // The child may exit before reading its request; 'close' reports why.
    });
    child.stdin.end(JSON.stringify(run.request));
  });
}
