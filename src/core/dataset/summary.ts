import type { DatasetReport } from './types';

/** The one-line summary of a file: "600 rows · 4 steps/epoch @128 · ✓", or the error count instead of the check mark; `$(error)` is a codicon in the status bar. */
export function summaryLine(
  report: Pick<DatasetReport, 'rows' | 'role' | 'format' | 'stepsPerEpoch' | 'batchSize'>,
  errors: number,
): string {
  const rows = `${report.rows.toLocaleString('en')} row${report.rows === 1 ? '' : 's'}`;
  const middle = report.role === 'training' ? `${report.stepsPerEpoch} steps/epoch @${report.batchSize}` : (report.role ?? report.format);
  const verdict = errors ? `$(error) ${errors.toLocaleString('en')} error${errors === 1 ? '' : 's'}` : '✓';
  return `${rows} · ${middle} · ${verdict}`;
}
