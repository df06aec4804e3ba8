import { parseRuntimeArn, runtimeLogGroup, smokePayload, smokeSessionId } from './payload';
import type { SmokeResult } from './report';
import { linesOfSession } from './session';
import { smokeVerdict, type InvocationOutcome, type LogLine } from './verdict';

/** The three AWS calls a smoke test makes, injected so the runner stays pure and testable. */
export interface SmokeBackend {
  callerAccount(signal: AbortSignal): Promise<string>;
  /** Resolves with the body or an error outcome; rejects only when `signal` aborts. */
  invoke(
    request: { runtimeArn: string; sessionId: string; payload: string; region: string },
    signal: AbortSignal,
  ): Promise<InvocationOutcome>;
  /**
   * Log lines at or after `startTime` (ms) of the group's streams that mention `jobArn` or `sessionId`
   * (only those streams: a training job may be writing to the same group); an absent group gives [].
   */
  logLines(
    request: { logGroup: string; region: string; startTime: number; jobArn: string; sessionId: string },
    signal: AbortSignal,
  ): Promise<LogLine[]>;
}

interface SmokeOptions {
  runtimeArn: string;
  /** How long to wait for the runtime's answer; the service gives up after about 30 s. */
  invokeTimeoutMs?: number;
  /** How long to watch the log group after the invocation (the reference says up to 60 s). */
  logWaitMs?: number;
  pollIntervalMs?: number;
  signal?: AbortSignal;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  onStep?: (message: string) => void;
}

const DEFAULT_INVOKE_TIMEOUT_MS = 35_000;
const DEFAULT_LOG_WAIT_MS = 60_000;

const DECISIVE = /Could not find job|not authorized to access this resource/i;
/** Lines that explain an invocation that already failed: nothing more is coming for this session. */
const FAILURE_EXPLAINED = /CompleteRollout:.*status=(?:failed|error)|Rollout error:|Traceback/i;
/** An invocation that answered with an error leaves little to wait for in the logs: watch them this long at most. */
const FAILED_INVOCATION_LOG_WAIT_MS = 10_000;

/** Thrown when the user cancels; the caller shows nothing but "cancelled". */
export class SmokeCancelled extends Error {
  constructor() {
    super('Smoke test cancelled.');
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new SmokeCancelled());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SmokeCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Invokes with a deadline of its own, so a runtime with no server ends as a timeout outcome, not a hang. */
async function invokeWithDeadline(
  backend: SmokeBackend,
  request: Parameters<SmokeBackend['invoke']>[0],
  timeoutMs: number,
  outer: AbortSignal,
): Promise<InvocationOutcome> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  outer.addEventListener('abort', onOuterAbort, { once: true });
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await backend.invoke(request, controller.signal);
  } catch (error) {
    if (outer.aborted) throw new SmokeCancelled();
    if (controller.signal.aborted) return { kind: 'timeout', seconds: Math.round(timeoutMs / 1000) };
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onOuterAbort);
  }
}

/** The whole smoke test: caller account, invocation, log evidence, verdict. */
export async function runSmokeTest(backend: SmokeBackend, options: SmokeOptions): Promise<SmokeResult> {
  const arn = parseRuntimeArn(options.runtimeArn);
  if (!arn)
    throw new Error(`"${options.runtimeArn}" is not an agent runtime ARN (arn:aws:bedrock-agentcore:<region>:<account>:runtime/<id>).`);
  const signal = options.signal ?? new AbortController().signal;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const step = options.onStep ?? (() => undefined);
  const invokeTimeoutMs = options.invokeTimeoutMs ?? DEFAULT_INVOKE_TIMEOUT_MS;
  const logWaitMs = options.logWaitMs ?? DEFAULT_LOG_WAIT_MS;
  const pollIntervalMs = options.pollIntervalMs ?? 3_000;

  step('Asking STS for your account');
  let callerAccount: string;
  try {
    // An endpoint that accepts and never answers must not hold the test: STS gets the invocation's time limit.
    callerAccount = await backend.callerAccount(AbortSignal.any([signal, AbortSignal.timeout(invokeTimeoutMs)]));
  } catch (error) {
    throw signal.aborted ? new SmokeCancelled() : error;
  }
  if (signal.aborted) throw new SmokeCancelled();
  const payload = smokePayload(callerAccount, arn.region, arn.partition);
  const sessionId = smokeSessionId();
  const logGroup = runtimeLogGroup(arn.runtimeId);
  // CloudWatch timestamps come from another clock: look a little before the call.
  const startedAt = now();
  const logStart = startedAt - 5_000;

  step('Invoking the runtime');
  const invocation = await invokeWithDeadline(
    backend,
    { runtimeArn: options.runtimeArn, sessionId, payload: JSON.stringify(payload), region: arn.region },
    invokeTimeoutMs,
    signal,
  );

  step(`Reading ${logGroup}`);
  const answeredWithError = invocation.kind === 'error';
  const deadline = now() + (answeredWithError ? Math.min(logWaitMs, FAILED_INVOCATION_LOG_WAIT_MS) : logWaitMs);
  let lines: LogLine[] = [];
  let logError: string | undefined;
  for (;;) {
    try {
      const all = await backend.logLines(
        { logGroup, region: arn.region, startTime: logStart, jobArn: payload.metadata.jobArn, sessionId },
        signal,
      );
      lines = linesOfSession(all, { sessionId, rolloutId: payload.metadata.rolloutId });
      logError = undefined;
    } catch (error) {
      if (signal.aborted) throw new SmokeCancelled();
      logError = error instanceof Error ? error.message : String(error);
    }
    if (signal.aborted) throw new SmokeCancelled();
    if (lines.some((l) => DECISIVE.test(l.message) || (answeredWithError && FAILURE_EXPLAINED.test(l.message))) || now() >= deadline) break;
    await sleep(Math.min(pollIntervalMs, Math.max(0, deadline - now())), signal);
  }

  const verdict = smokeVerdict({
    runtimeArn: options.runtimeArn,
    logGroup,
    callerAccount,
    invocation,
    logLines: lines,
    logWaitSeconds: Math.round(logWaitMs / 1000),
    logError,
  });
  return {
    runtimeArn: options.runtimeArn,
    region: arn.region,
    callerAccount,
    jobArn: payload.metadata.jobArn,
    sessionId,
    logGroup,
    startedAt: new Date(startedAt).toISOString(),
    durationMs: now() - startedAt,
    response: invocation.kind === 'response' ? invocation.body : undefined,
    verdict,
  };
}
