import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CHAT_PATH,
  couldNotFindJob,
  headerValue,
  JOB_ARN_HEADER,
  JOB_RUNTIME_ERRORS,
  MODELS_PATH,
  operationAt,
  TRAJECTORY_HEADER,
  type JobRuntimeErrorCode,
} from '../../core/signal/jobRuntimeApi';
import { refusalOfPageRequest } from '../../core/signal/localOrigin';
import { rolloutOfRftMetadata } from '../../core/signal/rftMetadata';
import { RolloutRecording } from '../../core/signal/rolloutRecording';
import { openAiError, relayChat, type Policy } from './policyRelay';

export type { Policy } from './policyRelay';

/**
 * The local job runtime: the Job Runtime API (Sample, SampleWithResponseStream, CompleteRollout, UpdateReward, and
 * chat completions under /v1) at one base URL per rollout, so every call is attributed to its rollout without
 * headers. Calls to the runtime's own base URL (an agent with a fixed endpoint) go to the rollout the
 * X-Amzn-SageMaker-Trajectory-Id header (or an old X-RFT-Metadata header) names, else to the one rollout in flight.
 */
export interface JobRuntime {
  url: string;
  /** The base URL with `/v1` (the Wordle sample's RFT_RUNTIME_ENDPOINT form), for agents that read a fixed endpoint. */
  baseUrl: string;
  /** The endpoint a rollout's payload names (`metadata.endpoint`): `…/rollouts/<id>`, without `/v1`, as the service sends it. */
  endpointOf(trajectoryId: string): string;
  /** Starts recording a rollout, in flight until `ended`; calls to its endpoint before this are refused. */
  add(recording: RolloutRecording): void;
  /** The rollout's agent process has ended: base URL calls are no longer its. */
  ended(trajectoryId: string): void;
  /** Model calls that named no known rollout: an agent talking to the runtime's root, or to an old rollout. */
  readonly unattributed: number;
  /** Of those, calls to the base URL refused because several rollouts were in flight and no header named one. */
  readonly ambiguous: number;
  /** Calls that arrived at a path the runtime does not serve (e.g. `/rollouts/x/v1/v1/chat/completions`), most first. */
  unservedPaths(): { path: string; count: number }[];
  close(): Promise<void>;
}

export interface JobRuntimeOptions {
  /** A policy answer larger than this is cut (default 64 MB). */
  maxAnswerBytes?: number;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const PER_ROLLOUT = /^\/rollouts\/([^/]+)(\/.*)?$/;

class RuntimeError extends Error {
  constructor(
    readonly code: JobRuntimeErrorCode,
    message: string,
    readonly status: number = JOB_RUNTIME_ERRORS[code],
  ) {
    super(message);
  }
}

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
        reject(new RuntimeError('ValidationException', 'The request body is not JSON.'));
      }
    });
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, errorCode?: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(errorCode ? { 'x-amzn-errortype': errorCode } : {}),
  });
  res.end(text);
}

/** What the runtime serves below a base URL, for the sentence that answers any other path. */
const SERVED = `POST ${CHAT_PATH}, /sample, /sample-with-response-stream, /complete-rollout, /update-reward`;

/** Starts the runtime on 127.0.0.1 (any free port). */
export async function startJobRuntime(policy: Policy, options: JobRuntimeOptions = {}): Promise<JobRuntime> {
  const recordings = new Map<string, RolloutRecording>();
  const aborts = new AbortController();
  const inFlight = new Set<string>();
  const unserved = new Map<string, number>();
  let unattributed = 0;
  let ambiguous = 0;
  let url = '';
  let port = 0;

  const knownJob = (arn: string) => [...recordings.values()].some((r) => r.task.jobArn === arn);

  /** The rollout a model call belongs to: its endpoint's path, else its headers, else the one in flight. */
  function rolloutOfCall(req: IncomingMessage, pathId: string | undefined): RolloutRecording {
    const job = headerValue(req.headers, JOB_ARN_HEADER);
    if (job !== undefined && !knownJob(job)) throw new RuntimeError('ValidationException', couldNotFindJob(job));
    if (pathId !== undefined) {
      const recording = recordings.get(pathId);
      if (!recording) throw new RuntimeError('ResourceNotFoundException', `No rollout ${pathId} in this job.`);
      return recording;
    }
    const named = headerValue(req.headers, TRAJECTORY_HEADER) ?? rolloutOfRftMetadata(req.headers['x-rft-metadata']);
    if (named !== undefined) {
      const recording = recordings.get(named);
      if (!recording) throw new RuntimeError('ResourceNotFoundException', `Trajectory ${named} not found in ${job ?? 'this job'}.`);
      return recording;
    }
    if (inFlight.size === 1) return recordings.get([...inFlight][0])!;
    if (inFlight.size > 1) {
      ambiguous++;
      throw new RuntimeError(
        'ConflictException',
        `${inFlight.size} rollouts are in flight and this call to the base URL names none (no X-Amzn-SageMaker-Trajectory-Id header): call the payload's metadata.endpoint + "/v1", send the SDK's headers, or play one rollout at a time (--concurrency 1).`,
      );
    }
    throw new RuntimeError(
      'ValidationException',
      `${couldNotFindJob(job)}: no rollout is in flight and this call names none. Call the payload's metadata.endpoint + "/v1".`,
    );
  }

  /** CompleteRollout / UpdateReward: the trajectory in the body (the SDK's form), else the endpoint's path. */
  function rolloutOfReport(req: IncomingMessage, body: Record<string, unknown>, pathId: string | undefined): RolloutRecording {
    const job = headerValue(req.headers, JOB_ARN_HEADER) ?? (typeof body.JobArn === 'string' && body.JobArn ? body.JobArn : undefined);
    if (job !== undefined && !knownJob(job)) throw new RuntimeError('ValidationException', couldNotFindJob(job));
    const id = typeof body.TrajectoryId === 'string' && body.TrajectoryId ? body.TrajectoryId : pathId;
    if (id === undefined) throw new RuntimeError('ValidationException', 'TrajectoryId is required.');
    const recording = recordings.get(id);
    if (!recording) throw new RuntimeError('ResourceNotFoundException', `Trajectory ${id} not found.`);
    return recording;
  }

  function unservedPath(path: string, pathId: string | undefined, rest: string): RuntimeError {
    unserved.set(path, (unserved.get(path) ?? 0) + 1);
    const base = pathId !== undefined ? `${url}/rollouts/${pathId}` : url;
    const hint = rest.endsWith('/chat/completions')
      ? ` Chat completions are served at ${base}${CHAT_PATH} only: an agent given metadata.endpoint (${base}) adds "/v1" once.`
      : '';
    return new RuntimeError('ResourceNotFoundException', `The local job runtime serves nothing at ${path}.${hint} It serves ${SERVED}.`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Checked before anything is read or relayed: the policy's key goes only with requests a local agent sent.
    const refusal = refusalOfPageRequest(req.headers, port, 'The local job runtime');
    if (refusal) throw new RuntimeError('AccessDeniedException', refusal);
    const path = (req.url ?? '/').split('?')[0].replace(/(.)\/+$/, '$1');
    const perRollout = PER_ROLLOUT.exec(path);
    const pathId = perRollout ? decodeURIComponent(perRollout[1]) : undefined;
    const rest = perRollout ? (perRollout[2] ?? '/') : path;
    const models = { object: 'list', data: [{ id: policy.model ?? 'policy', object: 'model' }] };
    if (rest === MODELS_PATH) return send(res, 200, models);
    const operation = operationAt(rest);
    const chat = rest === CHAT_PATH;
    if (!operation && !chat) throw unservedPath(path, pathId, rest);
    if (req.method !== 'POST') throw new RuntimeError('ValidationException', `${path} takes POST.`, 405);
    const body = await readBody(req);
    if (operation === 'CompleteRollout' || operation === 'UpdateReward') {
      const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
      const recording = rolloutOfReport(req, fields, pathId);
      if (operation === 'CompleteRollout') recording.completed(fields.Status);
      else {
        const rewards = fields.Rewards;
        if (!Array.isArray(rewards) || !rewards.every((r) => typeof r === 'number'))
          throw new RuntimeError('ValidationException', 'Rewards must be a list of numbers.');
        recording.rewarded(rewards);
      }
      return send(res, 200, {});
    }
    let recording: RolloutRecording;
    try {
      recording = rolloutOfCall(req, pathId);
    } catch (error) {
      unattributed++;
      throw error;
    }
    const outcome = await relayChat(policy, body, res, {
      stream: operation === 'SampleWithResponseStream',
      signal: aborts.signal,
      maxBytes: options.maxAnswerBytes,
    });
    if (outcome.completion !== undefined) recording.modelCall(body, outcome.completion);
    else recording.modelCallFailed(outcome.failure ?? 'The policy call failed.');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (res.headersSent) return void res.destroy();
      const e = error instanceof RuntimeError ? error : new RuntimeError('ValidationException', error.message);
      send(res, e.status, openAiError(e.message, e.code), e.code);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    endpointOf: (id) => `${url}/rollouts/${encodeURIComponent(id)}`,
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
    unservedPaths: () => [...unserved].map(([path, count]) => ({ path, count })).sort((a, b) => b.count - a.count),
    close: () =>
      new Promise<void>((resolve) => {
        aborts.abort();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
