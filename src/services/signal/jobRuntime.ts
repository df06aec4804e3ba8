import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rolloutOfRftMetadata } from '../../core/signal/rftMetadata';
import { RolloutRecording } from '../../core/signal/rolloutRecording';

/** Where the runtime forwards chat completions: any OpenAI-compatible base URL (ending in /v1), its key and model. */
export interface Policy {
  baseUrl: string;
  /** Replaces the agent's model name (the agent sends its own, e.g. "policy"); absent: forwarded as sent. */
  model?: string;
  /** Sent as `Authorization: Bearer …` (Bedrock's OpenAI-compatible endpoint takes its API key so). */
  apiKey?: string;
}

/**
 * The local job runtime: one endpoint per rollout, so every call is attributed to its rollout without headers.
 * Calls to its base URL (an agent with a fixed endpoint) go to the rollout their X-RFT-Metadata header names,
 * else to the one rollout in flight; with several in flight they are refused.
 */
export interface JobRuntime {
  url: string;
  /** The base URL (`…/v1`), for agents that read a fixed endpoint (e.g. from an environment variable). */
  baseUrl: string;
  /** The endpoint a rollout's payload names (`metadata.endpoint`): `…/rollouts/<id>/v1`. */
  endpointOf(trajectoryId: string): string;
  /** Starts recording a rollout, in flight until `ended`; calls to its endpoint before this are refused. */
  add(recording: RolloutRecording): void;
  /** The rollout's agent process has ended: base URL calls are no longer its. */
  ended(trajectoryId: string): void;
  /** Model calls that named no known rollout: an agent talking to the runtime's root, or to an old rollout. */
  readonly unattributed: number;
  /** Of those, calls to the base URL refused because several rollouts were in flight and no header named one. */
  readonly ambiguous: number;
  /** Calls that arrived at a path the runtime does not serve, most first: the report names them. */
  unservedPaths(): { path: string; count: number }[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
// The SDK posts to `metadata.endpoint` + /complete-rollout, so the SDK's routes are served under /v1 too.
const ROUTE = /^\/rollouts\/([^/]+)(?:\/v1)?(\/chat\/completions|\/models|\/complete-rollout|\/update-reward)\/?$/;
const SDK_ROUTE = /^(?:\/v1)?\/(complete-rollout|update-reward)\/?$/;
const BASE_ROUTE = /^(?:\/v1)?(\/chat\/completions|\/models)\/?$/;

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return req.destroy(new Error('request body too large'));
      chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? JSON.parse(text) : {});
      } catch {
        reject(new Error('The request body is not JSON.'));
      }
    });
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const openAiError = (message: string, type = 'invalid_request_error') => ({ error: { message, type, param: null, code: null } });

/** Sends one chat completion to the policy; the answer as it came, or a sentence naming the policy's URL. */
async function forward(policy: Policy, body: unknown, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
  const request = policy.model ? { ...(body as object), model: policy.model } : body;
  const url = `${policy.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(policy.apiKey ? { authorization: `Bearer ${policy.apiKey}` } : {}) },
      body: JSON.stringify(request),
      signal,
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return { status: 502, body: openAiError(`The policy at ${url} did not answer (${cause}). Is it running?`, 'policy_unreachable') };
  }
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: 502, body: openAiError(`The policy at ${url} answered ${response.status} with text that is not JSON.`, 'bad_policy') };
  }
}

/** Starts the runtime on 127.0.0.1 (any free port). */
export async function startJobRuntime(policy: Policy): Promise<JobRuntime> {
  const recordings = new Map<string, RolloutRecording>();
  const aborts = new AbortController();
  const inFlight = new Set<string>();
  let unattributed = 0;
  let ambiguous = 0;
  const byBody = (body: unknown) => recordings.get(String((body as { TrajectoryId?: unknown })?.TrajectoryId ?? ''));
  const byHeaderOrAlone = (req: IncomingMessage) => {
    const named = rolloutOfRftMetadata(req.headers['x-rft-metadata']);
    if (named !== undefined) return recordings.get(named);
    return inFlight.size === 1 ? recordings.get([...inFlight][0]) : undefined;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const route = ROUTE.exec(path);
    const sdk = SDK_ROUTE.exec(path);
    const base = BASE_ROUTE.exec(path);
    const body = req.method === 'POST' ? await readBody(req) : {};
    if (base?.[1] === '/models') return send(res, 200, { object: 'list', data: [{ id: policy.model ?? 'policy', object: 'model' }] });
    const recording = route ? recordings.get(decodeURIComponent(route[1])) : sdk ? byBody(body) : base ? byHeaderOrAlone(req) : undefined;
    const what = route?.[2] ?? (sdk ? `/${sdk[1]}` : base?.[1]);
    if (!recording) {
      if (path.endsWith('/chat/completions')) unattributed++;
      if (base && inFlight.size > 1 && rolloutOfRftMetadata(req.headers['x-rft-metadata']) === undefined) {
        ambiguous++;
        return send(
          res,
          409,
          openAiError(
            `${inFlight.size} rollouts are in flight and this call to the base URL names none (no X-RFT-Metadata header): call the payload's metadata.endpoint, or play one rollout at a time (--concurrency 1).`,
          ),
        );
      }
      return send(
        res,
        404,
        openAiError(
          `No rollout at ${path}: call the endpoint in the payload's metadata.endpoint (…/rollouts/<trajectory_id>/v1), not a fixed host.`,
        ),
      );
    }
    if (what === '/models') return send(res, 200, { object: 'list', data: [{ id: policy.model ?? 'policy', object: 'model' }] });
    if (req.method !== 'POST') return send(res, 405, openAiError(`${path} takes POST.`));
    if (what === '/complete-rollout') {
      recording.completed((body as { Status?: unknown }).Status);
      return send(res, 200, {});
    }
    if (what === '/update-reward') {
      recording.rewarded((body as { Rewards?: unknown }).Rewards);
      return send(res, 200, {});
    }
    const answer = await forward(policy, body, aborts.signal);
    if (answer.status === 200) recording.modelCall(body, answer.body);
    else
      recording.modelCallFailed(
        String((answer.body as { error?: { message?: unknown } })?.error?.message ?? `The policy answered ${answer.status}.`),
      );
    send(res, answer.status, answer.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => send(res, 400, openAiError(error.message)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    endpointOf: (id) => `${url}/rollouts/${encodeURIComponent(id)}/v1`,
    add: (recording) => {
      recordings.set(recording.task.id, recording);
      inFlight.add(recording.task.id);
    },
    ended: (id) => void inFlight.delete(id),
    get unattributed() {
      return unattributed;
    },
    get ambiguous() {
      return ambiguous;
    },
    unservedPaths: () => [],
    close: () =>
      new Promise<void>((resolve) => {
        aborts.abort();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
