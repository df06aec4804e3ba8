import type { JobRef } from '../jobs/reference';
import type { HealthFinding, HealthReport } from './findings';

// What a job's row and tooltip say of its health: apart from the checks, so the Jobs view draws it without loading them.

/** "truncation at step 12" for a row's description. */
export function findingLabel(finding: HealthFinding): string {
  return `${finding.kind} at step ${finding.step}`;
}

/** The findings still holding, most urgent (earliest) first. */
export function warningsOf(report: HealthReport | undefined): HealthFinding[] {
  return report?.findings.filter((f) => f.severity === 'warning') ?? [];
}

/** The commands a tooltip's findings link to: the job's Service logs and a smoke test of its agent runtime. */
export const HEALTH_LINK_COMMANDS = ['mtrl.openJobLogs', 'mtrl.smokeTestRuntime'] as const;

/** What a finding's links act on: the job (its Service logs) and the agent runtime it trains (the smoke test). */
export interface HealthLinkTarget {
  job: Required<JobRef>;
  runtimeArn?: string;
}

const link = (label: string, command: (typeof HEALTH_LINK_COMMANDS)[number], arg: unknown) =>
  `[${label}](command:${command}?${encodeURIComponent(JSON.stringify([arg]))})`;

/** One click to the next move: failing rollouts and a stall are read in the logs; failing rollouts also call for a smoke test. */
function linksOf(finding: HealthFinding, target: HealthLinkTarget | undefined): string[] {
  if (!target || (finding.kind !== 'failing-rollouts' && finding.kind !== 'stalled')) return [];
  const links = [link('$(output) Service logs', 'mtrl.openJobLogs', target.job)];
  if (finding.kind === 'failing-rollouts' && target.runtimeArn)
    links.push(link('$(beaker) Smoke Test Agent Runtime', 'mtrl.smokeTestRuntime', { runtimeArn: target.runtimeArn }));
  return links;
}

/** The tooltip's health section in Markdown: each finding with its threshold, action and links, then what was not checked. */
export function healthMarkdown(report: HealthReport, target?: HealthLinkTarget): string {
  const lines = ['**Run health**'];
  if (!report.findings.length) lines.push('', `No finding in ${report.steps} steps.`);
  for (const f of report.findings) {
    lines.push(
      '',
      `$(${f.severity === 'warning' ? 'warning' : 'info'}) **${findingLabel(f)}**: ${f.sentence}`,
      '',
      `*Threshold*: ${f.threshold.text} (\`${f.threshold.setting}\` ${f.threshold.value}). *What to do*: ${f.action}`,
    );
    const links = linksOf(f, target);
    if (links.length) lines.push('', links.join(' · '));
  }
  if (report.notChecked.length) lines.push('', `Not checked: ${report.notChecked.map((n) => `${n.kind} (${n.reason})`).join('; ')}.`);
  return lines.join('\n');
}
