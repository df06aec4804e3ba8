import { lineSpan } from './positions';
import { SEVERITY, type DatasetFormat, type DatasetReport, type Finding, type FindingCode } from './types';

/** Example places named in a summary finding. */
export const SUMMARY_EXAMPLES = 5;

/**
 * The one finding that stands for the findings of `code` past the per-code cap: how many were not listed, how many in all,
 * and where the first of them are (lines of JSON Lines and JSON files, rows of CSV and Parquet).
 */
export function summaryFinding(
  code: FindingCode,
  total: number,
  listed: number,
  examples: readonly number[],
  format: DatasetFormat,
): Finding {
  const where = format === 'csv' || format === 'parquet' ? 'rows' : 'lines';
  return {
    code,
    severity: SEVERITY[code],
    message: `${(total - listed).toLocaleString('en')} more ${code} findings not listed (${total.toLocaleString('en')} in all), e.g. ${where} ${examples.join(', ')}.`,
    span: lineSpan(examples[0] ?? 1),
    row: examples[0] ?? 0,
  };
}

/** Errors in a report, listed or not: its counts per code (summarized and omitted findings included). */
export function errorCount(report: Pick<DatasetReport, 'counts'>): number {
  let n = 0;
  for (const [code, count] of Object.entries(report.counts)) if (SEVERITY[code as FindingCode] === 'error') n += count ?? 0;
  return n;
}
