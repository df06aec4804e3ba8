// Turns what the in-host runner and the UI checks produced into results, a printout and the summary `npm test` reads.
import type { HostReport, HostTestResult } from '../runner/protocol';

export interface HostResult {
  /** `trusted` / `untrusted` for suites, `ui` for checks through the page. */
  phase: string;
  title: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: string;
}

/** Reads the runner's JSON report; a malformed one is an error that says so, not a silent pass. */
export function parseReport(text: string): HostReport {
  const data: unknown = JSON.parse(text);
  const report = data as HostReport;
  if (typeof data !== 'object' || data === null || typeof report.done !== 'boolean' || !Array.isArray(report.tests)) {
    throw new Error('the host runner report is not {done, tests[]}');
  }
  for (const test of report.tests) {
    if (typeof test.title !== 'string' || !['passed', 'failed', 'pending'].includes(test.state)) {
      throw new Error(`the host runner report has a malformed test entry: ${JSON.stringify(test).slice(0, 200)}`);
    }
  }
  return report;
}

function fromTest(phase: string, test: HostTestResult): HostResult {
  const error = test.error ? (test.error.stack ?? test.error.message) : undefined;
  return { phase, title: test.title, state: test.state, durationMs: test.durationMs, error };
}

/**
 * The results of one session. A missing or unfinished report (the host crashed or hung) and a runner
 * that broke become failures, so a run that tested nothing never reads as green.
 */
export function sessionResults(phase: string, report: HostReport | undefined, timeoutMs: number): HostResult[] {
  if (!report)
    return [
      {
        phase,
        title: 'host runner report',
        state: 'failed',
        durationMs: 0,
        error: `no report within ${timeoutMs / 1000} s: the runner extension did not start (see the extension-host log)`,
      },
    ];
  const results = report.tests.map((test) => fromTest(phase, test));
  if (report.fatal) results.push({ phase, title: 'host runner', state: 'failed', durationMs: 0, error: report.fatal });
  else if (!report.done)
    results.push({
      phase,
      title: 'host suites finished',
      state: 'failed',
      durationMs: 0,
      error: `the suites did not finish within ${timeoutMs / 1000} s of the last test's end`,
    });
  return results;
}

export function summarize(results: HostResult[]): { passed: number; failed: number } {
  const passed = results.filter((r) => r.state === 'passed').length;
  const failed = results.filter((r) => r.state === 'failed').length;
  // Nothing ran at all is a failure of the harness, not an empty success.
  return { passed, failed: results.length === 0 ? 1 : failed };
}

export function formatResults(results: HostResult[]): string {
  const mark = { passed: '✓', failed: '✗', pending: '-' } as const;
  const lines = results.map(
    (r) => `  ${mark[r.state]} [${r.phase}] ${r.title}${r.state === 'passed' ? ` (${Math.round(r.durationMs)} ms)` : ''}`,
  );
  for (const r of results.filter((x) => x.state === 'failed' && x.error)) {
    lines.push(
      '',
      `  ✗ [${r.phase}] ${r.title}`,
      ...r
        .error!.split('\n')
        .slice(0, 12)
        .map((l) => `      ${l}`),
    );
  }
  const { passed, failed } = summarize(results);
  if (results.length === 0) lines.push('  ✗ no host test or UI check ran (check MTRL_HOST_GREP)');
  lines.push('', `host: ${passed} passed, ${failed} failed`);
  return lines.join('\n');
}
