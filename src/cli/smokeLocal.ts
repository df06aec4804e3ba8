import path from 'node:path';
import { smokeReportText } from '../core/smoke';
import { LocalSmokeNotRun, runLocalSmoke } from '../services/smokeLocal';
import { runServerSmoke } from '../services/smokeServer';
import { EXIT_CLEAN, EXIT_FINDINGS, UsageError, type CliIO } from './command';
import { harnessScript } from './reward';

/** `mtrl smoke --local AGENT.py`: the service's smoke path against the local Job Runtime, with the deployed test's verdict. */
export async function smokeLocally(
  agentFile: string,
  o: { python?: string; timeoutMs?: number; json: boolean },
  io: CliIO,
): Promise<number> {
  const python = o.python ?? process.env.MTRL_PYTHON ?? 'python3';
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.once('SIGINT', onSignal);
  try {
    const result = await runLocalSmoke({
      python,
      runnerScript: harnessScript('agent_runner.py'),
      lintScript: harnessScript('agent_lint.py'),
      agentFile: path.resolve(agentFile),
      timeoutMs: o.timeoutMs,
      signal: io.signal ? AbortSignal.any([io.signal, interrupt.signal]) : interrupt.signal,
      onStep: o.json ? undefined : (step) => io.err(`${step}…`),
    });
    io.out(o.json ? JSON.stringify(result, null, 2) : smokeReportText(result));
    return result.verdict.ok ? EXIT_CLEAN : EXIT_FINDINGS;
  } catch (error) {
    if (io.signal?.aborted) throw error;
    if (error instanceof LocalSmokeNotRun) throw new UsageError(error.message);
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
  }
}

/** `mtrl smoke --server URL`: a customer rollout server's /health, then the smoke rollout, with the same verdict. */
export async function smokeServer(url: string, o: { timeoutMs?: number; json: boolean }, io: CliIO): Promise<number> {
  if (!/^https?:\/\/[^/\s]+/.test(url)) throw new UsageError(`--server takes the server's base URL (http://host:port), not "${url}".`);
  const result = await runServerSmoke({
    url,
    timeoutMs: o.timeoutMs,
    signal: io.signal,
    onStep: o.json ? undefined : (step) => io.err(`${step}…`),
  });
  io.out(o.json ? JSON.stringify(result, null, 2) : smokeReportText(result));
  return result.verdict.ok ? EXIT_CLEAN : EXIT_FINDINGS;
}
