import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { smokePayload, smokeSessionId, smokeVerdict, type InvocationOutcome, type LogLine, type SmokeResult } from '../core/smoke';
import { agentLintFindings } from './python/agentLint';
import { runContained } from './python/containedRun';
import { parseRunnerOutput } from './signal/runnerOutput';
import { startJobRuntime } from './signal/jobRuntime';

/** The service's smoke path run on this machine: the agent file, the smoke payload, the local Job Runtime answering 400 "Could not find job". */
export interface LocalSmokeRun {
  python: string;
  /** Absolute paths of `agent_runner.py` and `agent_lint.py`. */
  runnerScript: string;
  lintScript: string;
  agentFile: string;
  /** How long the agent may take (default 60 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  onStep?: (message: string) => void;
}

/** The smoke test could not run at all (no python, an unreadable file): the command line exits 2. */
export class LocalSmokeNotRun extends Error {}

/** The account of the fake job: the local runtime checks none. */
const LOCAL_ACCOUNT = '000000000000';
const REGION = 'us-east-1';
const ROLLOUT = 'r1';

/** Runs the agent once with the smoke payload against a local runtime that knows no job, lints the file, and gives the shared verdict. */
export async function runLocalSmoke(run: LocalSmokeRun): Promise<SmokeResult> {
  const step = run.onStep ?? (() => undefined);
  const source = await readFile(run.agentFile, 'utf8').catch((error: Error) => {
    throw new LocalSmokeNotRun(`cannot read ${run.agentFile}: ${error.message}`);
  });
  const payload = smokePayload(LOCAL_ACCOUNT, REGION);
  const lines: LogLine[] = [];
  const log = (message: string) => lines.push({ timestamp: Date.now(), message });
  const runtime = await startJobRuntime({ baseUrl: 'http://127.0.0.1:9/v1' }, { unknownJob: payload.metadata.jobArn, onErrorAnswer: log });
  const endpoint = runtime.endpointOf(ROLLOUT);
  const sent = { ...payload, metadata: { ...payload.metadata, endpoint }, modelEndpoint: `${endpoint}/v1` };
  const startedAt = Date.now();
  const timeoutMs = run.timeoutMs ?? 60_000;
  let stderr = '';
  step(`Running ${path.basename(run.agentFile)} with the smoke payload`);
  try {
    const outcome = await runContained({
      python: run.python,
      script: run.runnerScript,
      request: { file: run.agentFile, payload: sent },
      timeoutMs,
      signal: run.signal,
      onStderr: (text) => (stderr += text),
      parse: parseRunnerOutput,
      // The agent's own environment: the local check adds no AWS credentials of its own.
      env: { AWS_REGION: REGION },
      say: {
        timeout: `The agent did not return within ${timeoutMs / 1000} s.`,
        cancelled: 'The smoke test was cancelled.',
        crashed: (how) => `The agent runner ${how} without a result`,
      },
    });
    const r = outcome.response;
    if (!r.ok && 'error' in r && (r.error === 'spawn' || r.error === 'cancelled')) throw new LocalSmokeNotRun(r.message);
    for (const line of stderr.split(/\r?\n/).filter((l) => l.trim())) log(line);
    let invocation: InvocationOutcome;
    if (r.ok) invocation = { kind: 'response', body: JSON.stringify(r.result) };
    else if ('error' in r && r.error === 'timeout') invocation = { kind: 'timeout', seconds: timeoutMs / 1000 };
    else {
      const at = 'line' in r && r.line ? `${path.basename(run.agentFile)}:${r.line}: ` : '';
      // The SDK logs a raised rollout this way; the verdict reads it as the agent's failure.
      log(`Rollout error: ${at}${r.message}`);
      invocation = { kind: 'error', message: `The agent raised ${at}${r.message}` };
    }
    step('Linting the agent');
    const lint = await agentLintFindings(run.python, run.lintScript, source, run.signal);
    return {
      runtimeArn: runtime.url,
      region: REGION,
      callerAccount: LOCAL_ACCOUNT,
      jobArn: payload.metadata.jobArn,
      sessionId: smokeSessionId(),
      logGroup: "the local Job Runtime's answers and the agent's stderr",
      startedAt: new Date(startedAt).toISOString(),
      durationMs: Date.now() - startedAt,
      response: invocation.kind === 'response' ? invocation.body : undefined,
      verdict: smokeVerdict({
        runtimeArn: runtime.url,
        logGroup: 'the agent output',
        local: true,
        callerAccount: LOCAL_ACCOUNT,
        invocation,
        logLines: lines,
        logWaitSeconds: 0,
      }),
      local: {
        agentFile: run.agentFile,
        python: run.python,
        runtimeUrl: runtime.url,
        stubbed: 'stubbed' in r ? r.stubbed : [],
        lint: lint.map((f) => ({ line: f.range.start.line + 1, severity: f.severity, message: f.message })),
      },
    };
  } finally {
    await runtime.close();
  }
}
