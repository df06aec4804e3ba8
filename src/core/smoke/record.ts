import type { CheckResult } from '../jobs/preflight';

/** The last smoke result of one runtime. */
export interface SmokeRecord {
  ok: boolean;
  at: string;
  summary: string;
}

/** The smoke test's last result per runtime ARN. */
export type SmokeResults = Record<string, SmokeRecord>;

/** "passed 5 min ago" style text for tree descriptions and pickers. */
export function describeRecord(record: SmokeRecord | undefined, now = Date.now()): string {
  if (!record) return 'not smoke-tested';
  const minutes = Math.round((now - Date.parse(record.at)) / 60_000);
  const ago =
    minutes < 1
      ? 'just now'
      : minutes < 60
        ? `${minutes} min ago`
        : minutes < 48 * 60
          ? `${Math.round(minutes / 60)} h ago`
          : `${Math.round(minutes / 1440)} d ago`;
  return `smoke ${record.ok ? 'passed' : 'failed'} ${ago}`;
}

/** The pre-flight's smoke check: the runtime's last smoke test from this editor (a warning when none passed). */
export function checkSmoke(runtimeArn: string | undefined, results: SmokeResults | undefined): CheckResult {
  const last = runtimeArn ? results?.[runtimeArn] : undefined;
  const key = 'AgentRuntimeArn';
  if (!last)
    return {
      check: 'smoke',
      level: 'warn',
      message: 'No smoke test of the runtime is on record in the editor.',
      fix: 'Run "MTRL: Smoke Test Agent Runtime" (or `mtrl smoke --runtime ARN`) first: it costs nothing and catches most agent failures.',
      key,
    };
  if (!last.ok)
    return {
      check: 'smoke',
      level: 'warn',
      message: `The last smoke test (${last.at}) failed: ${last.summary}`,
      fix: 'Fix the agent and run the smoke test again before paying for a job.',
      key,
    };
  return { check: 'smoke', level: 'pass', message: `Smoke test passed ${last.at}: ${last.summary}`, key };
}
