/** The SDK's customer rollout server contract (`rft/models.py`): `GET /health` → {"status": "healthy"}, `POST /rollout`. */

export interface ServerHealth {
  ok: boolean;
  detail: string;
}

/** The smoke test's first check of a rollout server. */
export function healthCheck(health: ServerHealth): { id: 'health'; label: string; state: 'pass' | 'fail'; detail: string } {
  return { id: 'health', label: 'GET /health answered {"status": "healthy"}', state: health.ok ? 'pass' : 'fail', detail: health.detail };
}

export const HEALTH_FIX =
  'The SDK\'s rollout server contract: `GET /health` answers 200 with {"status": "healthy"} when ready. Start the server, check the URL, or wait until it is ready.';

export const ROLLOUT_FIX =
  "The server must accept the SDK's RolloutRequest (`instance`, `metadata`, `inference_params`) at POST /rollout and answer 2xx with the reward, even when the Job Runtime answers 400 for the smoke test's job.";
