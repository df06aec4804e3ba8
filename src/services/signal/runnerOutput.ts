import { PYTHON_MESSAGE_MAX, RESULT_MARKER } from '../../core/reward/protocol';
import { outsideText } from '../../core/text/display';

// What agent_runner.py answers for one run of an agent's entrypoint: the local check and the local smoke test read it.

interface RunnerResult {
  ok: true;
  /** Packages the agent imports that are not installed for this python: stubbed, so they do nothing. */
  stubbed: string[];
  result: unknown;
}

interface RunnerFailure {
  ok: false;
  kind: string;
  message: string;
  line?: number;
  stubbed: string[];
  /** A stub stood in the way: the error arose in one, or names one. */
  inStub: boolean;
}

/** The runner's result line in its stdout: the entrypoint's value, or how it failed. */
export function parseRunnerOutput(stdout: string): RunnerResult | RunnerFailure | undefined {
  const found = stdout.split(/\r?\n/).find((l) => l.startsWith(RESULT_MARKER));
  if (!found) return undefined;
  try {
    const v = JSON.parse(found.slice(RESULT_MARKER.length)) as Record<string, unknown>;
    const stubbed = Array.isArray(v.stubbed) ? v.stubbed.map(String) : [];
    if (v.ok === true) return { ok: true, result: v.result, stubbed };
    const line = typeof v.line === 'number' ? v.line : undefined;
    return {
      ok: false,
      kind: String(v.error),
      message: outsideText(String(v.message ?? 'The agent failed.'), PYTHON_MESSAGE_MAX),
      line,
      stubbed,
      inStub: v.inStub === true,
    };
  } catch {
    return undefined;
  }
}
