import type { InvocationOutcome, SmokeResult } from '../core/smoke';
import { localSmokeResult, startSmokeRuntime } from './smokeLocalRuntime';

/** A customer rollout server (the SDK's `rft/models.py` contract: `POST /rollout`, `GET /health` → {"status": "healthy"}). */
export interface ServerSmokeRun {
  /** The server's base URL, e.g. http://127.0.0.1:8080. */
  url: string;
  /** How long each call may take (default 60 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  onStep?: (message: string) => void;
}

/** One call with a ceiling: the answer's status and text, a network error, or the timeout. */
async function call(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ status: number; text: string } | { error: string } | { timeout: true }> {
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, deadline]) : deadline });
    return { status: res.status, text: await res.text() };
  } catch (error) {
    signal?.throwIfAborted();
    if (deadline.aborted) return { timeout: true };
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { error: `${(error as Error).message}${cause ? ` (${cause})` : ''}` };
  }
}

/** What `GET /health` said, against the SDK's `{"status": "healthy"}`. */
export async function checkHealth(base: string, timeoutMs: number, signal?: AbortSignal): Promise<{ ok: boolean; detail: string }> {
  const answer = await call(`${base}/health`, { method: 'GET' }, timeoutMs, signal);
  if ('timeout' in answer) return { ok: false, detail: `GET /health did not answer within ${timeoutMs / 1000} s.` };
  if ('error' in answer) return { ok: false, detail: `GET /health could not be sent: ${answer.error}.` };
  let status: unknown;
  try {
    status = (JSON.parse(answer.text) as { status?: unknown }).status;
  } catch {
    status = undefined;
  }
  if (answer.status === 200 && status === 'healthy') return { ok: true, detail: 'GET /health answered 200 {"status": "healthy"}.' };
  return { ok: false, detail: `GET /health answered HTTP ${answer.status}: ${answer.text.trim().slice(0, 200) || '(empty)'}.` };
}

/** `/health`, then one rollout of the smoke test's fake job, with its Job Runtime calls answered 400 "Could not find job" by a local runtime. */
export async function runServerSmoke(run: ServerSmokeRun): Promise<SmokeResult> {
  const step = run.onStep ?? (() => undefined);
  const base = run.url.replace(/\/+$/, '');
  const timeoutMs = run.timeoutMs ?? 60_000;
  const startedAt = Date.now();
  step(`Checking ${base}/health`);
  const health = await checkHealth(base, timeoutMs, run.signal);
  const smoke = await startSmokeRuntime();
  const { payload, runtime, endpoint } = smoke;
  try {
    // The SDK's RolloutRequest (snake_case `inference_params`, `model_endpoint`) beside the AgentCore payload's forms.
    const request = {
      ...payload,
      metadata: { ...payload.metadata, endpoint },
      inference_params: payload.inferenceParams,
      modelEndpoint: `${endpoint}/v1`,
      model_endpoint: `${endpoint}/v1`,
    };
    let invocation: InvocationOutcome = { kind: 'error', message: 'not sent: the health check failed' };
    if (health.ok) {
      step(`Sending the smoke rollout to ${base}/rollout`);
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) };
      const answer = await call(`${base}/rollout`, init, timeoutMs, run.signal);
      if ('timeout' in answer) invocation = { kind: 'timeout', seconds: timeoutMs / 1000 };
      else if ('error' in answer) invocation = { kind: 'error', message: answer.error };
      else if (answer.status >= 200 && answer.status < 300) invocation = { kind: 'response', statusCode: answer.status, body: answer.text };
      else invocation = { kind: 'error', statusCode: answer.status, message: answer.text.trim().slice(0, 500) || '(empty body)' };
    }
    return {
      ...localSmokeResult(smoke, { target: base, logGroup: "the local Job Runtime's answers", startedAt, invocation, server: { health } }),
      server: { url: base, runtimeUrl: runtime.url, health: health.detail },
    };
  } finally {
    await runtime.close();
  }
}
