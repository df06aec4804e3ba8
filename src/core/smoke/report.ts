import { extent } from '../metrics/extent';
import { outsideText } from '../text/display';
import type { CheckState, SmokeVerdict } from './verdict';

/** Everything a smoke-test report shows: what was sent where, and the verdict. */
export interface SmokeResult {
  runtimeArn: string;
  region: string;
  callerAccount: string;
  jobArn: string;
  sessionId: string;
  logGroup: string;
  startedAt: string;
  durationMs: number;
  response?: string;
  verdict: SmokeVerdict;
  /** Set when the agent ran on this machine (`mtrl smoke --local`) against the local Job Runtime. */
  local?: LocalSmokeFacts;
  /** Set when a customer rollout server was tested (`mtrl smoke --server`). */
  server?: { url: string; runtimeUrl: string; health: string };
}

/** What a local smoke test adds: where the agent ran, what was stubbed, and the lint's findings on the file. */
export interface LocalSmokeFacts {
  agentFile: string;
  python: string;
  runtimeUrl: string;
  /** Packages the agent imports that this python lacks: the runner replaced them with stubs that do nothing. */
  stubbed: string[];
  lint: { line: number; severity: string; message: string }[];
}

/** The line that says what was tested: a deployed runtime, or an agent file on this machine. */
function testedLine(result: SmokeResult): string {
  const l = result.local;
  const s = result.server;
  if (s) return `rollout server ${s.url} (GET /health, POST /rollout) against the local Job Runtime at ${s.runtimeUrl}`;
  if (!l) return `runtime ${result.runtimeArn} (caller account ${result.callerAccount})`;
  const stubs = l.stubbed.length
    ? `; stubbed, not installed for ${l.python}: ${l.stubbed.join(', ')} (pass --python with your venv's python)`
    : '';
  return `agent ${l.agentFile} run by ${l.python} against the local Job Runtime at ${l.runtimeUrl}${stubs}`;
}

function lintLines(result: SmokeResult): string[] {
  const lint = result.local?.lint ?? [];
  if (!result.local) return [];
  if (!lint.length) return ['lint: no findings'];
  return [
    `lint (${lint.length} finding${lint.length === 1 ? '' : 's'}):`,
    ...lint.map((f) => `  ${result.local!.agentFile}:${f.line}: ${f.severity}: ${f.message}`),
  ];
}

// Plain glyphs with words: emoji fonts are missing on many Linux machines.
const MARK: Record<CheckState, string> = {
  pass: '✓ passed',
  warn: '! passed with a warning',
  fail: '✗ failed',
  unknown: '? not confirmed',
};
const TEXT_MARK: Record<CheckState, string> = { pass: '[ok]  ', warn: '[warn]', fail: '[FAIL]', unknown: '[?]   ' };

function fence(lines: string[]): string[] {
  const { max: longest } = extent(
    lines.flatMap((l) => (l.match(/`+/g) ?? []).map((s) => s.length)),
    2,
  );
  const ticks = '`'.repeat(longest + 1);
  return [ticks + 'text', ...lines, ticks];
}

/** The report as Markdown, for the editor's preview. */
export function smokeReportMarkdown(result: SmokeResult): string {
  const { verdict } = result;
  const out = [
    `# Smoke test: ${verdict.ok ? 'passed' : 'failed'}`,
    '',
    verdict.summary,
    '',
    testedLine(result),
    '',
    ...verdict.checks.map((c) => `- **${c.label}**: ${MARK[c.state]}. ${c.detail}`),
    '',
  ];
  if (result.local) out.push('## Lint', '', ...fence(lintLines(result)), '');
  for (const d of verdict.diagnoses) {
    out.push(`## ${d.warning ? 'Warning: ' : ''}${d.problem}`, '', `**Fix:** ${d.fix}`, '');
    if (d.evidence.filter(Boolean).length) out.push(...fence(d.evidence.filter(Boolean)), '');
  }
  if (verdict.evidence.length) out.push('## Log lines', '', ...fence(verdict.evidence), '');
  out.push(
    '## Request',
    '',
    `| | |`,
    `|---|---|`,
    `| Runtime | \`${result.runtimeArn}\` |`,
    `| Caller account | ${result.callerAccount} |`,
    `| Fake job ARN | \`${result.jobArn}\` |`,
    `| Session id | \`${result.sessionId}\` |`,
    `| Log group | \`${result.logGroup}\` |`,
    `| Started | ${result.startedAt} (${(result.durationMs / 1000).toFixed(1)} s) |`,
    '',
  );
  if (result.response !== undefined) out.push('Response:', '', ...fence([result.response.slice(0, 2000)]), '');
  return out.join('\n');
}

/** Log lines behind a bar, each line of a multi-line message (a traceback) too. */
function quoted(lines: string[]): string[] {
  return lines.flatMap((l) => l.split(/\r?\n/)).map((l) => `  | ${outsideText(l)}`);
}

/** The report as plain text, for the command line. */
export function smokeReportText(result: SmokeResult): string {
  const { verdict } = result;
  const out = [verdict.summary, testedLine(result), ''];
  out.push(...verdict.checks.map((c) => `${TEXT_MARK[c.state]} ${c.label}: ${c.detail}`));
  for (const d of verdict.diagnoses) {
    out.push('', `${d.warning ? 'warning' : 'problem'}: ${d.problem}`, `fix:     ${d.fix}`, ...quoted(d.evidence.filter(Boolean)));
  }
  // Log lines are the agent's text: escaped line by line, so none can move the cursor or forge a line of the report.
  if (verdict.evidence.length) out.push('', `log lines (${result.logGroup}):`, ...quoted(verdict.evidence));
  if (result.local) out.push('', ...lintLines(result));
  return out.join('\n');
}
