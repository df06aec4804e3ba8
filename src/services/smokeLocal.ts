import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { InvocationOutcome, SmokeResult } from '../core/smoke';
import { agentLintFindings } from './python/agentLint';
import { runContained } from './python/containedRun';
import { parseRunnerOutput } from './signal/runnerOutput';
import { localSmokeResult, REGION, startSmokeRuntime } from './smokeLocalRuntime';

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

/** Runs the agent once with the smoke payload against a local runtime that knows no job, lints the file, and gives the shared verdict. */
export async function runLocalSmoke(run: LocalSmokeRun): Promise<SmokeResult> {
  const step = run.onStep ?? (() => undefined);
  const source = await readFile(run.agentFile, 'utf8').catch((error: Error) => {
    throw new LocalSmokeNotRun(`cannot read ${run.agentFile}: ${error.message}`);
  });
  const smoke = await startSmokeRuntime();
  const { payload, runtime, endpoint, log } = smoke;
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
      ...localSmokeResult(smoke, {
        target: runtime.url,
        logGroup: "the local Job Runtime's answers and the agent's stderr",
        startedAt,
        invocation,
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
