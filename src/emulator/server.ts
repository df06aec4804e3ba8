import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AGENTCORE_OPERATIONS, agentCore } from './agentcore';
import { chatCompletion } from './chat';
import { completionEvents, sendCompletionStream } from './chatStream';
import { refusalOfPageRequest } from '../core/signal/localOrigin';
import { systemClock, type Clock } from './clock';
import { iam, IAM_OPERATIONS, sts, STS_OPERATIONS } from './identity';
import { lambda, LAMBDA_OPERATIONS } from './lambda';
import { logs, LOGS_OPERATIONS } from './logs';
import { eventBridge, EVENTS_OPERATIONS, sns, SNS_OPERATIONS } from './notifications';
import { keepLedger } from './metricsLedger';
import { EmulatedJobRuntime, jobRuntimeCall } from './jobRuntime';
import { isMlflowPath, mlflow } from './mlflow';
import { jsonBody, protocolOf, readRequest, sendError, sendJson, sendQuery, ServiceError, type EmulatorRequest } from './protocol';
import { s3, S3_OPERATIONS } from './s3';
import { sagemaker, SAGEMAKER_OPERATIONS } from './sagemaker';
import { seedWorld } from './seedWorld';
import { serviceQuotas, SERVICE_QUOTAS_OPERATIONS } from './serviceQuotas';
import { ACCOUNT, World } from './world';

export interface EmulatorOptions {
  /** 0 (default): any free port. */
  port?: number;
  /** Seeds every rollout; the same seed replays the same games. */
  seed?: string;
  /** How much faster than real time new jobs run (default 60: a minute of service time per second). */
  speed?: number;
  /** How much faster than real time the seeded in-progress job runs (default: `speed`); a test run longer than its
   * 11 minutes at 60 (a busy machine's) slows it so the job still runs when its checks come. */
  runningSpeed?: number;
  /** Fraction of requests answered with the service's throttling error, spread evenly (0.5: every other request). */
  throttleRate?: number;
  /** Fraction of requests answered with a 500, spread evenly. */
  errorRate?: number;
  /** Delay before every answer. */
  latencyMs?: number;
  /** Extra delay before each S3 DeleteObjects answer: a slow cleanup that a deadline or Ctrl-C stops mid-way. */
  deleteLatencyMs?: number;
  /** Extra delay before each S3 GET answer (an object, a listing): reading 1,511 trace artifacts one at a time is then measured. */
  s3GetLatencyMs?: number;
  /** Regions whose SageMaker, Logs and AgentCore answer AccessDenied, as for an account the service is not enabled in. */
  deniedRegions?: readonly string[];
  /** Every request fails with the SDK's expired-token error. */
  expiredCredentials?: boolean;
  /** How long a `*_no_server` runtime hangs before failing (AgentCore: 30 s; default 30 s divided by speed). */
  noServerTimeoutMs?: number;
  /** `traces/batchGet` returns traces without spans, so a reader must fetch each trace's `traces.json` from S3. */
  tracesWithoutSpans?: boolean;
  /** Seed the job history (default true). */
  history?: boolean;
  clock?: Clock;
  region?: string;
  /** Service Quotas values by quota code, instead of the seeded ones (`{ 'L-A9CEE0B1': 0 }`: a new account). */
  quotas?: Readonly<Record<string, number>>;
  /** Compute finished steps' MLflow metrics in idle time (`mtrl emulator` does), so a first metrics request finds them ready. */
  precomputeMetrics?: boolean;
  /** Serve only local clients (a loopback Host with this port, no Origin, no body type a web page sends): the emulator
   * as a local check's policy. Off for `mtrl emulator`, whose SDK clients post forms (STS, IAM) and may name other hosts. */
  localClientsOnly?: boolean;
}

export interface Emulator {
  url: string;
  port: number;
  world: World;
  /** Requests received per `service:operation` (S3 and AgentCore: `service:METHOD`), faults included: tests see retries and scans. */
  requests: Map<string, number>;
  close(): Promise<void>;
}

/** The AWS operations the emulator answers, by SigV4 signing name: read from each service's routing, so nothing served goes unlisted (the MLflow REST API is not an AWS SDK service). */
export const SERVED_OPERATIONS: Readonly<Record<string, readonly string[]>> = {
  sagemaker: SAGEMAKER_OPERATIONS,
  logs: LOGS_OPERATIONS,
  s3: S3_OPERATIONS,
  sts: STS_OPERATIONS,
  iam: IAM_OPERATIONS,
  'bedrock-agentcore': AGENTCORE_OPERATIONS,
  servicequotas: SERVICE_QUOTAS_OPERATIONS,
  lambda: LAMBDA_OPERATIONS,
  sns: SNS_OPERATIONS,
  events: EVENTS_OPERATIONS,
};

/** Services whose answers depend on the region (S3, IAM and STS are account-wide here). */
const REGIONAL = new Set(['sagemaker', 'logs', 'bedrock-agentcore', 'servicequotas', 'lambda', 'sns', 'events']);

/** A fraction of requests, evenly spaced from the first one and deterministic: with rate 0.5 a retry always gets through. */
function evenly(rate: number): () => boolean {
  let n = 0;
  return () => {
    const hit = Math.ceil((n + 1) * rate) > Math.ceil(n * rate);
    n++;
    return hit;
  };
}

/** Starts the local MTRL service on loopback: SageMaker Jobs, CloudWatch Logs, S3, STS, IAM and AgentCore over their real wire protocols. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const speed = options.speed ?? 60;
  const world = new World(options.clock ?? systemClock, speed, options.region ?? 'us-east-1', options.seed ?? 'mtrl');
  seedWorld(world, options.history ?? true, options.runningSpeed);
  world.tracesWithoutSpans = options.tracesWithoutSpans ?? false;
  for (const [code, value] of Object.entries(options.quotas ?? {})) world.quotas.set(code, value);
  const throttled = evenly(options.throttleRate ?? 0);
  const failed = evenly(options.errorRate ?? 0);
  const noServerTimeoutMs = options.noServerTimeoutMs ?? Math.round(30_000 / speed);
  const requests = new Map<string, number>();
  // How many conversations opened with each first message: the scripted policy samples a new game for each.
  const openings = new Map<string, number>();
  const jobRuntime = new EmulatedJobRuntime(world, openings);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let request: EmulatorRequest | undefined;
    const refusal = options.localClientsOnly ? refusalOfPageRequest(req.headers, port, 'The emulator') : undefined;
    if (refusal) return void res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ message: refusal }));
    try {
      request = await readRequest(req);
      // The Job Runtime takes SigV4 (boto3's sagemakerjobruntime client) and bearer tokens (the SDK, the openai client) alike.
      const runtimeCall = jobRuntimeCall(request);
      if (runtimeCall) {
        requests.set(`sagemakerjobruntime:${runtimeCall}`, (requests.get(`sagemakerjobruntime:${runtimeCall}`) ?? 0) + 1);
        return jobRuntime.handle(runtimeCall, request, res);
      }
      if (!request.service) {
        if (req.method === 'GET' && request.path === '/')
          return sendJson(res, request, { service: 'mtrl-emulator', account: ACCOUNT, region: world.region }, 200, 'application/json');
        if (req.method === 'POST' && /^(?:\/v1)?\/chat\/completions$/.test(request.path)) {
          // The scripted policy as an OpenAI-compatible model: a bearer token or none, as a local job runtime forwards it.
          requests.set('openai:ChatCompletions', (requests.get('openai:ChatCompletions') ?? 0) + 1);
          const body = jsonBody(request);
          const answer = chatCompletion(body, world.clock.now(), openings);
          if (answer.status === 200 && body.stream === true) {
            const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
            return sendCompletionStream(res, request.requestId, completionEvents(answer.body, includeUsage));
          }
          return sendJson(res, request, answer.body, answer.status, 'application/json');
        }
        if (req.method === 'GET' && request.path.startsWith('/mlflow-ui/'))
          return void res.writeHead(200, { 'content-type': 'text/html' }).end(MLFLOW_UI_PAGE);
        throw new ServiceError(
          'MissingAuthenticationTokenException',
          'Missing Authentication Token: sign requests with SigV4 (any key works).',
          403,
        );
      }
      const key = `${request.service}:${request.operation ?? request.method}`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      if (options.deleteLatencyMs && key === 's3:POST' && request.query.has('delete'))
        await new Promise((resolve) => setTimeout(resolve, options.deleteLatencyMs));
      if (options.s3GetLatencyMs && key === 's3:GET') await new Promise((resolve) => setTimeout(resolve, options.s3GetLatencyMs));
      if (options.deniedRegions?.includes(request.region) && REGIONAL.has(request.service))
        throw new ServiceError(
          'AccessDeniedException',
          `User: arn:aws:iam::${ACCOUNT}:user/emulator is not authorized to perform ${request.service}:${request.operation ?? request.method} in ${request.region}.`,
          403,
        );
      if (options.expiredCredentials) {
        const code = protocolOf(request) === 'json' || protocolOf(request) === 'rest-json' ? 'ExpiredTokenException' : 'ExpiredToken';
        throw new ServiceError(code, 'The security token included in the request is expired', 400);
      }
      if (throttled()) throw throttlingError(request);
      if (failed())
        throw new ServiceError(
          request.service === 's3' ? 'InternalError' : 'InternalFailure',
          'We encountered an internal error. Please try again.',
          500,
        );
      await dispatch(request, res);
    } catch (error) {
      const e =
        error instanceof ServiceError ? error : new ServiceError('InternalFailure', `Emulator bug: ${(error as Error).message}`, 500);
      if (request) sendError(res, request, e);
      else res.destroy();
    }
  }

  async function dispatch(request: EmulatorRequest, res: ServerResponse): Promise<void> {
    const op = request.operation ?? '';
    if (isMlflowPath(request.path)) return mlflow(world, request, res);
    switch (request.service) {
      case 'sagemaker':
        return sendJson(res, request, sagemaker(world, op, jsonBody(request), request.region, request.headers.host));
      case 'logs':
        return sendJson(res, request, logs(world, op, jsonBody(request), request.region));
      case 's3':
        return s3(world, request, res);
      case 'sts':
        return sendQuery(res, request, 'https://sts.amazonaws.com/doc/2011-06-15/', sts(op));
      case 'iam':
        return sendQuery(res, request, 'https://iam.amazonaws.com/doc/2010-05-08/', iam(world, op, request.query));
      case 'bedrock-agentcore':
        return agentCore(world, request, res, { noServerTimeoutMs });
      case 'servicequotas':
        return sendJson(res, request, serviceQuotas(world, op, jsonBody(request), request.region));
      case 'lambda':
        return lambda(request, res);
      case 'sns':
        return sendQuery(res, request, 'http://sns.amazonaws.com/doc/2010-03-31/', sns(world, op, request.query, request.region));
      case 'events':
        return sendJson(res, request, eventBridge(world, op, jsonBody(request), request.region));
      default:
        throw new ServiceError('UnknownServiceException', `The emulator does not emulate the service '${request.service}'.`, 400);
    }
  }

  let port = 0;
  const server = createServer((req, res) => void handle(req, res));
  // Node's 5 s default closes idle sockets the SDK's keep-alive agent may be reusing at that instant (ECONNRESET).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const stopLedger = new AbortController();
  if (options.precomputeMetrics) void keepLedger(world, stopLedger.signal);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    world,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        stopLedger.abort();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const MLFLOW_UI_PAGE =
  '<!doctype html><meta charset="utf-8"><title>MLflow (MTRL emulator)</title><p>The MTRL emulator serves the MLflow REST API but no MLflow web UI. Against real AWS this link opens the run in SageMaker managed MLflow.</p>';

function throttlingError(request: EmulatorRequest): ServiceError {
  if (request.service === 's3') return new ServiceError('SlowDown', 'Please reduce your request rate.', 503);
  if (protocolOf(request) === 'query') return new ServiceError('Throttling', 'Rate exceeded', 400);
  return new ServiceError('ThrottlingException', 'Rate exceeded', protocolOf(request) === 'rest-json' ? 429 : 400);
}
