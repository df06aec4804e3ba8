import { smokePayload, smokeSessionId, smokeVerdict, type InvocationOutcome, type LogLine, type SmokeResult } from '../core/smoke';
import { startJobRuntime, type JobRuntime } from './signal/jobRuntime';

// What the two smoke tests run on this machine share (an agent file, a rollout server): the fake job's payload, the local
// Job Runtime that answers its calls 400 "Could not find job", and the result around the shared verdict.

/** The account of the fake job: the local runtime checks none. */
const LOCAL_ACCOUNT = '000000000000';
export const REGION = 'us-east-1';
const ROLLOUT = 'r1';

export interface SmokeRuntime {
  payload: ReturnType<typeof smokePayload>;
  runtime: JobRuntime;
  /** The endpoint the smoke rollout is given (its model calls go below it + /v1). */
  endpoint: string;
  /** The runtime's answers, then whatever the caller adds: the verdict's log lines. */
  lines: LogLine[];
  log(message: string): void;
}

/** The smoke payload and a local Job Runtime that knows no job; the caller closes the runtime. */
export async function startSmokeRuntime(): Promise<SmokeRuntime> {
  const payload = smokePayload(LOCAL_ACCOUNT, REGION);
  const lines: LogLine[] = [];
  const log = (message: string) => void lines.push({ timestamp: Date.now(), message });
  const runtime = await startJobRuntime({ baseUrl: 'http://127.0.0.1:9/v1' }, { unknownJob: payload.metadata.jobArn, onErrorAnswer: log });
  return { payload, runtime, endpoint: runtime.endpointOf(ROLLOUT), lines, log };
}

/** The result of a smoke test run here: what was tried (`target`), its outcome, and the verdict every smoke test gives. */
export function localSmokeResult(
  smoke: SmokeRuntime,
  run: {
    target: string;
    logGroup: string;
    startedAt: number;
    invocation: InvocationOutcome;
    server?: Parameters<typeof smokeVerdict>[0]['server'];
  },
): SmokeResult {
  const { invocation } = run;
  return {
    runtimeArn: run.target,
    region: REGION,
    callerAccount: LOCAL_ACCOUNT,
    jobArn: smoke.payload.metadata.jobArn,
    sessionId: smokeSessionId(),
    logGroup: run.logGroup,
    startedAt: new Date(run.startedAt).toISOString(),
    durationMs: Date.now() - run.startedAt,
    response: invocation.kind === 'response' ? invocation.body : undefined,
    verdict: smokeVerdict({
      runtimeArn: run.target,
      logGroup: run.logGroup,
      local: true,
      ...(run.server ? { server: run.server } : {}),
      callerAccount: LOCAL_ACCOUNT,
      invocation,
      logLines: smoke.lines,
      logWaitSeconds: 0,
    }),
  };
}
