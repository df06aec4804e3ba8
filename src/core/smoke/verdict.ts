import { agentAdviceForLogs } from '../environments/registry';
import { raisedAt } from './traceback';
import { HEALTH_FIX, healthCheck, ROLLOUT_FIX, type ServerHealth } from './serverContract';

/** What InvokeAgentRuntime gave back: a body, an error, or nothing before our deadline. */
export type InvocationOutcome =
  | { kind: 'response'; statusCode?: number; body: string }
  | { kind: 'error'; message: string; statusCode?: number; name?: string }
  | { kind: 'timeout'; seconds: number };

export interface LogLine {
  timestamp: number;
  message: string;
}

export type CheckState = 'pass' | 'warn' | 'fail' | 'unknown';

/** The tiers, each resting on the one before: the call went through, the agent reached the Job Runtime, it answered as the SDK expects, and what its environment pack adds. */
interface SmokeCheck {
  id: 'health' | 'transport' | 'wiring' | 'contract' | 'pack';
  label: string;
  state: CheckState;
  detail: string;
}

interface SmokeDiagnosis {
  problem: string;
  fix: string;
  evidence: string[];
  /** A warning leaves the test passed: the agent works, but a job would count failed trajectories. */
  warning?: boolean;
}

export interface SmokeVerdict {
  ok: boolean;
  checks: SmokeCheck[];
  diagnoses: SmokeDiagnosis[];
  /** The log lines that back the verdict, quoted in the report. */
  evidence: string[];
  reward?: number;
  summary: string;
}

interface VerdictInput {
  runtimeArn: string;
  /** Where the log lines came from: the runtime's log group, or a local agent's output. */
  logGroup: string;
  /** The agent ran on this machine against the local runtime: no log group to wait for, nothing to redeploy. */
  local?: boolean;
  /** A customer rollout server (the SDK's `GET /health`, `POST /rollout`) was tested, with what its health check said. */
  server?: { health: ServerHealth };
  callerAccount: string;
  invocation: InvocationOutcome;
  logLines: LogLine[];
  /** How long the log group was watched, for the "no log lines" diagnosis. */
  logWaitSeconds: number;
  /** Why the log group could not be read, when it could not. */
  logError?: string;
}

const JOB_NOT_FOUND = /Could not find job/i;
const STATUS_400 = /status[=: ]+400\b|\b400\b.*Could not find job|Could not find job.*\b400\b/i;
const NOT_AUTHORIZED = /not authorized to access this resource|status[=: ]+403\b/i;
const HANDLER_RAN = /CompleteRollout|UpdateReward|Failed \/|Rollout error|Could not find job|not authorized|trajectory_id=/i;
const WORTH_QUOTING =
  /Could not find job|not authorized|status[=: ]+\d{3}|UpdateReward|CompleteRollout|Rollout error|Failed to report|Traceback|Exception|Error\b|bearer token|agent loop ended/i;
const AGENT_FAILED = /CompleteRollout:.*status=(?:failed|error)|signaled that the trajectory failed|Rollout error:/i;
const TIMEOUT_ERROR = /timed? ?out|timeout|did not respond|no response|took too long/i;

/** What an agent's answer to the smoke payload holds: its reward, or the status it returned instead. */
interface SmokeAnswer {
  reward?: number;
  status?: string;
  parsed: boolean;
}

/**
 * The one rule of every smoke test (deployed, local, or through the service): any numeric reward passes, since the
 * agent returned a reward despite the fake job's 400; an error status, or no reward, fails.
 */
export const answerPasses = (answer: SmokeAnswer | undefined): boolean => answer?.reward !== undefined && Number.isFinite(answer.reward);

/** The reward in a response body, or undefined; `status` when the agent returned one instead. */
export function readSmokeAnswer(body: string): SmokeAnswer {
  try {
    const value = JSON.parse(body) as unknown;
    if (typeof value === 'number') return { reward: value, parsed: true };
    if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      const reward =
        typeof record.reward === 'number'
          ? record.reward
          : Array.isArray(record.reward) && typeof record.reward[0] === 'number'
            ? record.reward[0]
            : undefined;
      const status = typeof record.status === 'string' ? record.status : undefined;
      return { reward, status, parsed: true };
    }
    return { parsed: true };
  } catch {
    return { parsed: false };
  }
}

function quote(lines: LogLine[], pattern: RegExp, limit = 12): string[] {
  return lines
    .filter((l) => pattern.test(l.message))
    .slice(0, limit)
    .map((l) => l.message.trim());
}

/** Turns an invocation result and the runtime's log lines into the smoke-test checklist and diagnoses with fixes. */
export function smokeVerdict(input: VerdictInput): SmokeVerdict {
  const { invocation, logLines } = input;
  const diagnoses: SmokeDiagnosis[] = [];
  const notFound = quote(logLines, JOB_NOT_FOUND);
  const authenticated = logLines.filter((l) => JOB_NOT_FOUND.test(l.message) && STATUS_400.test(l.message)).map((l) => l.message.trim());
  const forbidden = quote(logLines, NOT_AUTHORIZED);
  const handlerRan = logLines.some((l) => HANDLER_RAN.test(l.message));
  const body = invocation.kind === 'response' ? readSmokeAnswer(invocation.body) : undefined;
  const timedOut = invocation.kind === 'timeout' || (invocation.kind === 'error' && TIMEOUT_ERROR.test(invocation.message));
  const agentFailed = quote(logLines, AGENT_FAILED);
  if (invocation.kind === 'error' && AGENT_FAILED.test(invocation.message)) agentFailed.unshift(invocation.message);

  const raised = raisedAt(logLines.map((l) => l.message));
  const reachedJobRuntime = notFound.length > 0 || (invocation.kind === 'error' && JOB_NOT_FOUND.test(invocation.message));
  const agentRan = handlerRan || raised !== undefined || body !== undefined;
  const agentRaised = reachedJobRuntime && invocation.kind === 'error';
  const pack = agentAdviceForLogs(logLines.map((l) => l.message));
  const again = input.local ? 'run the smoke test again' : 'redeploy';
  const server = input.server;
  const checks: SmokeCheck[] = [
    ...(server ? [healthCheck(server.health)] : []),
    {
      id: 'transport',
      label: server ? 'POST /rollout reached the server' : input.local ? 'Ran the entrypoint' : 'Invoked (transport, IAM)',
      state: agentRan ? 'pass' : timedOut || invocation.kind === 'error' ? 'fail' : 'unknown',
      detail: agentRan
        ? server
          ? "The server answered the SDK's RolloutRequest."
          : input.local
            ? 'The agent ran with the smoke payload.'
            : 'InvokeAgentRuntime reached the agent.'
        : 'No sign that the agent ran.',
    },
    {
      id: 'wiring',
      label: 'Reached the Job Runtime (400 "Could not find job")',
      state: reachedJobRuntime ? 'pass' : forbidden.length || timedOut || raised ? 'fail' : 'unknown',
      detail: reachedJobRuntime
        ? 'The Job Runtime answered 400 "Could not find job": payload decoded, token signed, endpoint right.'
        : forbidden.length
          ? 'The Job Runtime answered 403 "not authorized".'
          : raised
            ? `The agent raised ${raised.exception} before calling the policy.`
            : 'No 400 "Could not find job" in the runtime logs or the error.',
    },
    {
      id: 'contract',
      label: 'Returned a reward (any number passes; an error status or no reward fails)',
      state: answerPasses(body) ? 'pass' : 'fail',
      detail:
        body?.reward !== undefined
          ? `The runtime returned reward ${body.reward}.`
          : body?.status !== undefined
            ? `The runtime returned status "${body.status}" and no reward.`
            : agentRaised
              ? 'The agent raised instead of returning a reward.'
              : 'No reward in the response.',
    },
  ];
  if (pack)
    checks.push({
      id: 'pack',
      label: pack.noPlayCheck,
      // The pack's expectation is advice: any numeric reward passes the test.
      state: body?.reward === pack.noPlayReward ? 'pass' : 'warn',
      detail: pack.noPlayDetail,
    });

  if (server && !server.health.ok)
    diagnoses.push({
      problem: `The server's health check failed: ${server.health.detail}`,
      fix: HEALTH_FIX,
      evidence: [],
    });
  if (forbidden.length) {
    diagnoses.push({
      problem: 'The Job Runtime answered 403 "not authorized to access this resource".',
      fix: `The job ARN names another account than the one that owns the runtime's role. Invoke with credentials of the runtime's account (the smoke test used account ${input.callerAccount}), and check the runtime role has the AmazonSageMakerJobRuntimeAccess policy.`,
      evidence: forbidden,
    });
  }
  if (timedOut) {
    diagnoses.push({
      problem:
        invocation.kind === 'timeout'
          ? `The runtime did not answer within ${invocation.seconds} s.`
          : `The invocation timed out: ${invocation.message}`,
      fix: `No HTTP server is listening in the runtime. \`@app.entrypoint\` must be the outermost decorator, above \`@sagemaker_rft_handler\`, and \`app = BedrockAgentCoreApp()\` must exist (with \`app.run()\` under \`__main__\`). Fix main.py and ${again}.`,
      evidence: quote(logLines, WORTH_QUOTING),
    });
  } else if (agentRaised) {
    diagnoses.push({
      problem:
        'The agent raised when the Job Runtime answered 400 "Could not find job" (as it does outside a job) instead of returning a reward.',
      fix: `The wiring works. In a job, each rollout that raises is a failed trajectory, and failed trajectories cancel the job: catch errors around the rollout and return a reward (the lowest your task gives)${pack ? `, e.g. {"reward": ${pack.noPlayReward}}` : ''}.`,
      evidence: [...new Set([...agentFailed, ...quote(logLines, JOB_NOT_FOUND, 3)])],
    });
  } else if (raised) {
    diagnoses.push({
      problem: `The agent raised ${raised.exception} before calling the policy (${raised.frame}${raised.code ? `: ${raised.code}` : ''}).`,
      fix: `Fix that line of the agent and ${again}. The smoke test sends the SDK's payload (the row as \`instance\`, with \`metadata\`, \`inferenceParams\`) and a top-level \`prompt\`; read the row from \`payload["instance"]\`, else \`payload["prompt"]\` (\`mtrl lint\` checks it).`,
      evidence: quote(logLines, /Traceback|Error|Exception|File "/, 12),
    });
  } else if (agentFailed.length) {
    diagnoses.push({
      problem: 'The agent signaled that the trajectory failed instead of returning a reward.',
      fix: 'During training this cancels the whole job. Catch errors around the rollout and always return a reward (the lowest your task gives); never return an error status.',
      evidence: agentFailed,
    });
  } else if (invocation.kind === 'error' && server) {
    // A server that is not healthy got no rollout: the health diagnosis says why.
    if (server.health.ok)
      diagnoses.push({
        problem: `POST /rollout failed${invocation.statusCode ? ` (HTTP ${invocation.statusCode})` : ''}: ${invocation.message}`,
        fix: ROLLOUT_FIX,
        evidence: quote(logLines, WORTH_QUOTING),
      });
  } else if (invocation.kind === 'error') {
    diagnoses.push({
      problem: `InvokeAgentRuntime failed${invocation.statusCode ? ` (HTTP ${invocation.statusCode})` : ''}: ${invocation.message}`,
      fix: 'Check the runtime ARN, that the runtime is READY, and that your credentials may call bedrock-agentcore:InvokeAgentRuntime in its region.',
      evidence: quote(logLines, WORTH_QUOTING),
    });
  }
  if (body?.status !== undefined && body.reward === undefined) {
    diagnoses.push({
      problem: `The agent returned status "${body.status}" instead of a reward.`,
      fix: `In a job this is a failed trajectory ("The agent signaled that the trajectory failed"), and failed trajectories cancel the job. Catch errors around the rollout and return a reward${pack ? `, e.g. {"reward": ${pack.noPlayReward}}` : ' (the lowest your task gives)'}.`,
      evidence: [invocation.kind === 'response' ? invocation.body.trim() : ''],
    });
  } else if (pack && body?.reward !== undefined && body.reward !== pack.noPlayReward) {
    diagnoses.push({
      problem: `The reward was ${body.reward}, not ${pack.noPlayReward}.`,
      fix: pack.noPlayFix,
      evidence: [invocation.kind === 'response' ? invocation.body.trim() : ''],
      warning: true,
    });
  } else if (invocation.kind === 'response' && body && !body.parsed) {
    diagnoses.push({
      problem: 'The response is not JSON.',
      fix: 'The handler must return a JSON object with a numeric reward, such as {"reward": 0.0}.',
      evidence: [invocation.body.trim().slice(0, 300)],
    });
  } else if (invocation.kind === 'response' && body?.reward === undefined && body?.status === undefined) {
    diagnoses.push({
      problem: 'The response holds no reward.',
      fix: 'Return {"reward": <number>} from the handler decorated with @sagemaker_rft_handler.',
      evidence: [invocation.body.trim().slice(0, 300)],
    });
  }
  if (logLines.length === 0 && !input.local) {
    diagnoses.push({
      problem: `No log lines in ${input.logGroup} within ${input.logWaitSeconds} s of the invocation.`,
      fix: 'Check that the log group exists (the runtime writes it on its first start), that the runtime role may write to CloudWatch Logs, and that your credentials may call logs:FilterLogEvents.',
      evidence: input.logError ? [input.logError] : [],
    });
  } else if (
    !authenticated.length &&
    !reachedJobRuntime &&
    !raised &&
    !forbidden.length &&
    !timedOut &&
    !agentFailed.length &&
    invocation.kind !== 'error'
  ) {
    // A failed invocation is already explained above: its missing Job Runtime answer is a consequence, not a second cause.
    diagnoses.push({
      problem: 'The logs show no answer from the Job Runtime.',
      fix: input.local
        ? 'The agent should call the Job Runtime at the payload\'s metadata.endpoint (the model at metadata.endpoint + "/v1") and get 400 "Could not find job" for the smoke-test job. Read the endpoint from the payload, not from a fixed URL.'
        : 'The agent should call the Job Runtime (RFT_RUNTIME_ENDPOINT) with a bearer token and get 400 "Could not find job" for the smoke-test job. Check the endpoint and that the runtime role has AmazonSageMakerJobRuntimeAccess.',
      evidence: quote(logLines, WORTH_QUOTING),
    });
  }

  const ok = checks.every((c) => c.state === 'pass' || c.state === 'warn') && diagnoses.every((d) => d.warning);
  const failed = checks.filter((c) => c.state !== 'pass' && c.state !== 'warn').map((c) => c.label.toLowerCase());
  const passed = `Smoke test passed: invoked, reached the Job Runtime, ${body?.reward !== undefined ? `reward ${body.reward}` : 'answered'}`;
  const summary = ok
    ? `${passed}${diagnoses.length ? ` (warning: ${diagnoses[0].problem})` : '.'}`
    : `Smoke test failed: ${diagnoses.find((d) => !d.warning)?.problem ?? `not confirmed: ${failed.join(', ')}`}`;
  return { ok, checks, diagnoses, evidence: quote(logLines, WORTH_QUOTING, 20), reward: body?.reward, summary };
}
