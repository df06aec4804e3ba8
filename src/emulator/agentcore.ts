import type { ServerResponse } from 'node:http';
import { isValidWord } from '../core/environments/wordle';
import { TRAIN_ANSWERS, VALIDATION_ANSWERS } from './answers';
import { jobState } from './jobs';
import { dayOf } from './logStreams';
import { playRollout } from './policy';
import { jsonBody, sendJson, ServiceError, type EmulatorRequest } from './protocol';
import { hashSeed, Random } from './random';
import { ACCOUNT, runtimeLogGroup, type Runtime, type World } from './world';

const isoTime = (ms: number) => new Date(ms).toISOString();

function runtimeJson(r: Runtime) {
  return {
    agentRuntimeArn: r.arn,
    agentRuntimeId: r.id,
    agentRuntimeVersion: '1',
    agentRuntimeName: r.name,
    description: r.description,
    lastUpdatedAt: isoTime(r.created),
    status: 'READY',
  };
}

function runtimeOf(world: World, request: EmulatorRequest, id: string): Runtime {
  const r = world.runtimeByArnOrId(id, request.region);
  if (!r) throw new ServiceError('ResourceNotFoundException', `Agent runtime ${id} not found.`, 404);
  return r;
}

function listAgentRuntimes(world: World, request: EmulatorRequest, res: ServerResponse): void {
  const start = Number(request.query.get('nextToken') ?? 0);
  const max = Number(request.query.get('maxResults') ?? 100);
  const regional = world.runtimes.filter((r) => r.region === request.region);
  const page = regional.slice(start, start + max);
  sendJson(
    res,
    request,
    { agentRuntimes: page.map(runtimeJson), nextToken: start + max < regional.length ? String(start + max) : undefined },
    200,
    'application/json',
  );
}

function getAgentRuntime(world: World, request: EmulatorRequest, res: ServerResponse, id: string): void {
  const r = runtimeOf(world, request, id);
  sendJson(
    res,
    request,
    {
      ...runtimeJson(r),
      createdAt: isoTime(r.created),
      roleArn: `arn:aws:iam::${ACCOUNT}:role/AmazonBedrockAgentCoreRuntimeRole-${r.name}`,
      // Required by the service model: AgentCore's defaults (15 minutes idle, 8 hours at most).
      lifecycleConfiguration: { idleRuntimeSessionTimeout: 900, maxLifetime: 28800 },
      networkConfiguration: { networkMode: 'PUBLIC' },
      protocolConfiguration: { serverProtocol: 'HTTP' },
      environmentVariables: { REASONING_EFFORT: r.effort, ROLLOUT_BUDGET_SECONDS: '420' },
      agentRuntimeArtifact: {
        containerConfiguration: { containerUri: `${ACCOUNT}.dkr.ecr.${r.region}.amazonaws.com/bedrock-agentcore-${r.name}:latest` },
      },
    },
    200,
    'application/json',
  );
}

function deleteAgentRuntime(world: World, request: EmulatorRequest, res: ServerResponse, id: string): void {
  const r = runtimeOf(world, request, id);
  world.runtimes.splice(world.runtimes.indexOf(r), 1);
  sendJson(res, request, { agentRuntimeId: r.id, agentRuntimeVersion: '1', status: 'DELETING' }, 202, 'application/json');
}

/** The SDK's rollout contract (snake_case and camelCase metadata alike) and the Wordle sample's top-level `prompt`. */
interface RolloutRequest {
  instance?: { prompt?: unknown };
  prompt?: unknown;
  metadata?: { job_arn?: unknown; trajectory_id?: unknown; jobArn?: unknown; rolloutId?: unknown };
}

/**
 * A support agent's two ways to raise, as its logs show them: on the Job Runtime's 400 (the policy call outside a job)
 * and with a KeyError before any policy call. The SDK's decorator logs the error and the runtime answers 500.
 */
function supportAgentRaises(kind: 'raises-on-400' | 'key-error', jobArn: string, trajectory: string, log: (m: string) => void): never {
  const frames = [
    'Traceback (most recent call last):',
    '  File "/app/main.py", line 88, in handle_rollout',
    '    return run_support_rollout(payload)',
  ];
  const [frame, exception] =
    kind === 'key-error'
      ? [['  File "/app/main.py", line 57, in run_support_rollout', '    ticket = task["prompt"]'], "KeyError: 'prompt'"]
      : [
          ['  File "/app/main.py", line 64, in run_support_rollout', '    reply = policy.chat(messages)'],
          `openai.BadRequestError: Error code: 400 - {'message': 'Could not find job ${jobArn}'}`,
        ];
  log(`Rollout error: trajectory_id=${trajectory} error=${exception}`);
  log([...frames, ...frame, exception].join('\n'));
  throw new ServiceError('RuntimeClientError', 'Received error (500) from runtime. Check your CloudWatch logs for more information.', 424);
}

interface InvokeOptions {
  /** How long a runtime without an HTTP server hangs before the call fails (AgentCore: 30 s). */
  noServerTimeoutMs: number;
}

/** AgentCore data plane: InvokeAgentRuntime (POST /runtimes/{arn}/invocations), acting out the paths the smoke test checks (src/core/smoke). */
async function invokeAgentRuntime(
  world: World,
  request: EmulatorRequest,
  res: ServerResponse,
  id: string,
  options: InvokeOptions,
): Promise<void> {
  const runtime = world.runtimeByArnOrId(id, request.region);
  if (!runtime || runtime.region !== request.region)
    throw new ServiceError('ResourceNotFoundException', `No agent runtime ${id} in ${request.region} of account ${ACCOUNT}.`, 404);
  const session = String(request.headers['x-amzn-bedrock-agentcore-runtime-session-id'] ?? '');
  if (session.length < 33 || session.length > 256)
    throw new ServiceError('ValidationException', `runtimeSessionId must be 33 to 256 characters long (got ${session.length}).`);
  const group = runtimeLogGroup(runtime.id);
  const stream = `${dayOf(world.clock.now())}/[runtime-logs]${session}`;
  const log = (message: string) => world.log(runtime.region, group, stream, message);
  if (runtime.kind === 'no-server') {
    await new Promise((resolve) => setTimeout(resolve, options.noServerTimeoutMs));
    throw new ServiceError(
      'RuntimeClientError',
      'The agent runtime did not respond within 30 seconds: no HTTP server is listening. Check that @app.entrypoint is the outermost decorator and that BedrockAgentCoreApp runs.',
      424,
    );
  }
  const payload = jsonBody(request) as RolloutRequest;
  const trajectory = String(payload.metadata?.trajectory_id ?? payload.metadata?.rolloutId ?? 'r1');
  const jobArn = String(payload.metadata?.job_arn ?? payload.metadata?.jobArn ?? '');
  if (runtime.kind === 'raises-on-400' || runtime.kind === 'key-error') return supportAgentRaises(runtime.kind, jobArn, trajectory, log);
  // The row as the SDK sends it (`instance`), else the top-level `prompt` the Wordle sample reads.
  const promptText = payload.instance?.prompt ?? payload.prompt;
  let row: { answer?: unknown; id?: unknown } = {};
  try {
    row = JSON.parse(String(promptText)) as typeof row;
  } catch {
    log(`Rollout error: trajectory_id=${trajectory} error=the prompt is not a JSON string with an answer`);
  }
  if (runtime.kind === 'error-status') {
    log(`Rollout error: trajectory_id=${trajectory} error=RuntimeError('environment crashed')`);
    log(`CompleteRollout: trajectory_id=${trajectory} status=failed`);
    throw new ServiceError(
      'RuntimeClientError',
      'The agent answered with an error status (HTTP 500) instead of a reward: a training job would fail with "The agent signaled that the trajectory failed".',
      424,
    );
  }
  const answer = isValidWord(row.answer) ? row.answer.toLowerCase() : undefined;
  const account = jobArn.split(':')[4];
  const job = [...world.jobs.values()].find((j) => j.arn === jobArn);
  let reward = -1.5;
  if (account && account !== ACCOUNT) {
    log(
      `agent loop ended early on attempt 1/2 (PermissionDeniedError: Error code: 403 - User is not authorized to access this resource); 0 guess(es) played`,
    );
    log(
      `Failed /complete-rollout: status=403 body={"message":"User arn:aws:sts::${ACCOUNT}:assumed-role/AmazonBedrockAgentCoreRuntimeRole/session is not authorized to access this resource"}`,
    );
  } else if (!job || jobState(job, world.clock.now()).status !== 'InProgress') {
    log(`agent loop ended early on attempt 1/2 (BadRequestError: Error code: 400 - Could not find job ${jobArn}); 0 guess(es) played`);
    log(`Failed /complete-rollout: status=400 body={"message":"Could not find job ${jobArn}"}`);
  } else if (answer) {
    const played = playRollout(answer, [...TRAIN_ANSWERS, ...VALIDATION_ANSWERS], 0.6, new Random(hashSeed(session)));
    reward = played.reward;
    log(
      JSON.stringify({
        mtrl_rollout: 1,
        trajectory_id: trajectory,
        job_arn: jobArn,
        row_id: String(row.id ?? ''),
        answer,
        turns: played.turns.map((t) => ({ guess: t.guess, ...(t.valid ? { marks: t.marks } : { valid: false }), source: t.source })),
        solved: played.solved,
        reward,
        outcome: played.outcome,
        shaping: played.shaping,
      }),
    );
  }
  log(`CompleteRollout: trajectory_id=${trajectory} status=ready`);
  log(`UpdateReward: trajectory_id=${trajectory} rewards=[${reward}]`);
  res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-bedrock-agentcore-runtime-session-id': session });
  res.end(JSON.stringify({ reward }));
}

type Handler = (world: World, request: EmulatorRequest, res: ServerResponse, id: string, options: InvokeOptions) => void | Promise<void>;

/** AgentCore over REST-JSON, control plane and data plane alike signed as `bedrock-agentcore`: each operation by method and path. */
const ROUTES: { operation: string; method: string; path: RegExp; handle: Handler }[] = [
  { operation: 'ListAgentRuntimes', method: 'POST', path: /^\/runtimes\/$/, handle: listAgentRuntimes },
  { operation: 'GetAgentRuntime', method: 'GET', path: /^\/runtimes\/([^/]+)\/?$/, handle: getAgentRuntime },
  { operation: 'DeleteAgentRuntime', method: 'DELETE', path: /^\/runtimes\/([^/]+)\/?$/, handle: deleteAgentRuntime },
  { operation: 'InvokeAgentRuntime', method: 'POST', path: /^\/runtimes\/(.+)\/invocations$/, handle: invokeAgentRuntime },
];

/** Every AgentCore operation served: the routing itself, so the service-model test drives each one. */
export const AGENTCORE_OPERATIONS: readonly string[] = ROUTES.map((r) => r.operation);

export function agentCore(world: World, request: EmulatorRequest, res: ServerResponse, options: InvokeOptions): void | Promise<void> {
  for (const route of ROUTES) {
    const match = request.method === route.method ? route.path.exec(request.path) : null;
    if (match) return route.handle(world, request, res, match[1] ?? '', options);
  }
  throw new ServiceError('UnknownOperationException', `The emulator does not implement AgentCore ${request.method} ${request.path}.`, 404);
}
