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
import { CheckAllowance, Draw, REQUEST_BYTE_COPIES } from '../../core/signal/checkAllowance';
import { refusalOfPageRequest } from '../../core/signal/localOrigin';
import { reportBodyProblem, ReportLedger, type ReportOperation } from '../../core/signal/runtimeReports';
import { rolloutOfRftMetadata } from '../../core/signal/rftMetadata';
import { RolloutRecording } from '../../core/signal/rolloutRecording';
import { openAiError, relayChat, type Policy } from './policyRelay';

export type { Policy } from './policyRelay';

/**
 * The local job runtime: the Job Runtime API and chat completions under /v1, at one base URL per rollout; calls to its
 * own base URL go to the rollout X-Amzn-SageMaker-Trajectory-Id (or X-RFT-Metadata) names, else to the one in flight.
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
  /** The smoke path: every call is for this job, which the runtime does not run, and gets the service's 400 "Could not find job". */
  unknownJob?: string;
  /** Each error answer, as a log line (`POST /path: status=400 Could not find job …`): the smoke test's evidence. */
  onErrorAnswer?: (line: string) => void;
  /** What the whole check holds at once (default: a new allowance of CHECK_ALLOWANCE_BYTES). */
  allowance?: CheckAllowance;
  /** A rollout's request or answer would pass the allowance: its agent is to be stopped (the recording has the sentence). */
  onOverAllowance?: (trajectoryId: string) => void;
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

/** Refused before the body is read: the agent's request over the check's allowance. */
class OverAllowance extends Error {}

function readBody(req: IncomingMessage, draw: Draw): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return req.destroy(new Error('request body too large'));
      // The body is held until its call is answered: its bytes, its text, its messages and what is forwarded.
      if (!draw.more(chunk.length * REQUEST_BYTE_COPIES)) {
        // The rest is read and dropped, so the agent still gets the sentence.
        req.removeAllListeners('data').resume();
        const declared = Number(req.headers['content-length']);
        const whole = declared > 0 ? ` of ${declared} bytes` : '';
        const held = `${size} bytes read so far; a request is held about ${REQUEST_BYTE_COPIES} times over while it is answered`;
        return reject(new OverAllowance(`The agent's request${whole} (${held})`));
      }
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
  const allowance = options.allowance ?? new CheckAllowance();
  const recordings = new Map<string, RolloutRecording>();
  const reports = new ReportLedger();
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
    if (options.unknownJob !== undefined) throw new RuntimeError('ValidationException', couldNotFindJob(options.unknownJob));
    if (req.method !== 'POST') throw new RuntimeError('ValidationException', `${path} takes POST.`, 405);
    const report = operation === 'CompleteRollout' || operation === 'UpdateReward';
    const draw = new Draw(allowance);
    try {
      // A model call's rollout is known from its path or headers before its body is read; a report's, from its body.
      const caller = report ? undefined : attributed(req, pathId);
      if (caller?.stopped) throw new RuntimeError('ServiceQuotaExceededException', caller.stopped);
      const body = await readBody(req, draw).catch((error: Error) => {
        if (!(error instanceof OverAllowance)) throw error;
        const sentence = allowance.exceeded(error.message);
        const rollout = caller ?? (pathId !== undefined ? recordings.get(pathId) : undefined);
        if (rollout) stop(rollout, sentence);
        throw new RuntimeError('ServiceQuotaExceededException', sentence);
      });
      if (report) return reportCall(req, res, operation, body, pathId);
      if (!body || typeof body !== 'object' || Array.isArray(body))
        throw new RuntimeError('ValidationException', 'A chat completion request must be a JSON object (model, messages).');
      const recording = caller!;
      const outcome = await relayChat(policy, body, res, {
        stream: operation === 'SampleWithResponseStream',
        signal: aborts.signal,
        maxBytes: options.maxAnswerBytes,
        allowance,
      });
      if (outcome.completion !== undefined) recording.modelCall(body, outcome.completion);
      else recording.modelCallFailed(outcome.failure ?? 'The policy call failed.');
      if (outcome.overAllowance) stop(recording, outcome.failure!);
      else if (recording.stopped) options.onOverAllowance?.(recording.task.id);
    } finally {
      draw.release();
    }
  }

  /** A model call's rollout; a call that names none known is counted. */
  function attributed(req: IncomingMessage, pathId: string | undefined): RolloutRecording {
    try {
      return rolloutOfCall(req, pathId);
    } catch (error) {
      unattributed++;
      throw error;
    }
  }

  function stop(recording: RolloutRecording, sentence: string): void {
    recording.stop(sentence);
    options.onOverAllowance?.(recording.task.id);
  }

  function reportCall(req: IncomingMessage, res: ServerResponse, operation: ReportOperation, body: unknown, pathId?: string): void {
    const problem = reportBodyProblem(operation, body);
    const fields = (problem ? {} : body) as Record<string, unknown>;
    const recording = rolloutOfReport(req, fields, pathId);
    if (problem) {
      // The rollout keeps why its reward is missing: the report names it.
      if (operation === 'UpdateReward') recording.rewardRefused(problem);
      throw new RuntimeError('ValidationException', problem);
    }
    const turn = reports.check(operation, recording.task.id, fields);
    if (turn !== 'first' && turn !== 'retry') throw new RuntimeError('ConflictException', turn);
    if (turn === 'first') reports.record(operation, recording.task.id, fields);
    if (turn === 'first' && operation === 'CompleteRollout') recording.completed(fields.Status);
    else if (turn === 'first') recording.rewarded(fields.Rewards);
    send(res, 200, {});
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (res.headersSent) return void res.destroy();
      const e = error instanceof RuntimeError ? error : new RuntimeError('ValidationException', error.message);
      options.onErrorAnswer?.(`${req.method ?? ''} ${req.url ?? '/'}: status=${e.status} ${e.message}`);
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
