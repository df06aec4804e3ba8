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

/** The tooltip's health section in Markdown: each finding with its threshold and action, then what was not checked. */
export function healthMarkdown(report: HealthReport): string {
  const lines = ['**Run health**'];
  if (!report.findings.length) lines.push('', `No finding in ${report.steps} steps.`);
  for (const f of report.findings) {
    lines.push(
      '',
      `$(${f.severity === 'warning' ? 'warning' : 'info'}) **${findingLabel(f)}**: ${f.sentence}`,
      '',
      `*Threshold*: ${f.threshold.text} (\`${f.threshold.setting}\` ${f.threshold.value}). *What to do*: ${f.action}`,
    );
  }
  if (report.notChecked.length) lines.push('', `Not checked: ${report.notChecked.map((n) => `${n.kind} (${n.reason})`).join('; ')}.`);
  return lines.join('\n');
}
