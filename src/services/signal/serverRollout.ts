import type { HarnessRunFailure } from '../../core/reward/protocol';
import type { RolloutRecording } from '../../core/signal/rolloutRecording';

/** What one rollout on a customer rollout server gave: the answer as the agent runner's result, or how it failed. */
type ServerOutcome = { response: { ok: true; result: unknown; stubbed: [] } | HarnessRunFailure; stderr: string };

/** The SDK's RolloutRequest (`rft/models.py`: `instance`, `metadata`, `inference_params`, `model_name`, `model_endpoint`) beside the forms AgentCore agents read. */
export function rolloutRequest(payload: Record<string, unknown>): Record<string, unknown> {
  const metadata = payload.metadata as { endpoint?: string };
  return {
    ...payload,
    inference_params: payload.inferenceParams,
    model_name: payload.modelName,
    model_endpoint: `${metadata.endpoint}/v1`,
  };
}

// How often a rollout accepted without its result is asked about again.
const POLL_MS = 50;

/**
 * POST /rollout, then, for a server that accepts and plays on (the SDK's feedback client reports later), waits for its
 * complete-rollout or reward until the rollout's time is up.
 */
export async function playOnServer(
  base: string,
  payload: Record<string, unknown>,
  recording: RolloutRecording,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ServerOutcome> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  const failed = (error: HarnessRunFailure['error'], message: string): ServerOutcome => ({
    response: { ok: false, error, message },
    stderr: '',
  });
  const stopped = () =>
    signal.aborted
      ? failed('cancelled', 'The signal check was cancelled.')
      : failed('timeout', `The rollout did not finish within ${timeoutMs / 1000} s and was stopped.`);
  let status: number;
  let text: string;
  try {
    const res = await fetch(`${base}/rollout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rolloutRequest(payload)),
      signal: both,
    });
    status = res.status;
    text = await res.text();
  } catch (error) {
    if (both.aborted) return stopped();
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return failed('crashed', `POST ${base}/rollout could not be sent: ${(error as Error).message}${cause ? ` (${cause})` : ''}.`);
  }
  if (status < 200 || status >= 300)
    return failed('crashed', `POST /rollout answered HTTP ${status}: ${text.trim().slice(0, 300) || '(empty body)'}`);
  let result: unknown;
  try {
    result = text.trim() ? JSON.parse(text) : {};
  } catch {
    result = {};
  }
  recording.returned(result);
  while (!recording.settled) {
    if (both.aborted) return stopped();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { response: { ok: true, result, stubbed: [] }, stderr: '' };
}
