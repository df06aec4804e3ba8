import {
  datasetConventions,
  roleFromName,
  type DatasetConvention,
  type DatasetFormat,
  type DatasetReport,
  type DatasetRole,
  type Finding,
  DEFAULT_MAX_PER_CODE,
  SEVERITY,
  type FindingCode,
} from '../core/dataset';
import { jobFilesBeside } from '../services/datasets/batchSize';
import { DatasetUnreadable, sourceFormat, whyNoFormat } from '../services/datasets/sources';
import { validateDatasets, withOverlap, type DatasetsReport } from '../services/datasets/validate';
import { PARQUET_BUDGET_SECONDS } from '../services/parquet/offThread';
import { AWS_OPTIONS, awsFromOptions } from './awsOptions';
import { EXIT_CLEAN, EXIT_FINDINGS, parseOptions, UsageError, type CliCommand } from './command';

const CONVENTIONS = datasetConventions();

const usage = `Usage: mtrl validate <file|s3-uri>... [--batch N] [--train F --val F] [--convention ${CONVENTIONS.join('|')}] [--format F] [--json]

Checks datasets the way the service reads them (JSON Lines, JSON array, CSV, Parquet):
prompt column, flat rows, the task JSON inside the prompt, an environment's answer form
(Wordle: five letters), duplicates, answer leaks, row counts against global_batch_size, and
training/validation overlap.
Files stream, so size is no limit (Parquet is read one row group at a time, local or by S3 byte ranges).

  --batch       global_batch_size for the row-count checks (default: from a *.mtrl.json job file beside
                the dataset whose train channel names it, else 128); a training file needs more rows than it
  --train F     the training file (also: a file whose name contains "train")
  --val F       the validation file (also: a file whose name contains "val"; "eval"/"test" are evaluation)
  --convention  how prompt strings are read (default auto: task checks on JSON-object prompts)
  --format      jsonl|json|csv|parquet when the name does not say
  --max-findings N   findings listed per code and file (default 100); the rest are counted in one summary finding
  --read-timeout SECONDS   give up a Parquet file the decoder cannot read in this time (default 30; exit 2)
  --region, --endpoint, --profile   for s3:// URIs (the endpoint also from AWS_ENDPOINT_URL)
  --json        {"files":[{"path","format","rows","errors","warnings","info","counts","truncated"}],"overlap":{"ids","answers"}}

Exit code 1 when any file has an error; 2 on a usage or I/O error.`;

interface JsonFinding {
  line: number;
  column: number;
  code: string;
  message: string;
}

/** Lines as the issue defines them: character positions for JSON text, the row number for CSV (header = 1) and Parquet. */
function toJson(finding: Finding, format: DatasetFormat): JsonFinding {
  const byRow = format === 'csv' || format === 'parquet';
  return {
    line: byRow ? finding.row || 1 : finding.span.start.line,
    column: byRow ? 1 : finding.span.start.column,
    code: finding.code,
    message: finding.message,
  };
}

/** One file or s3:// URI through the dataset service; an unreadable source or a Parquet file past --read-timeout is an I/O error (exit 2). */
function readable(report: DatasetReport, path: string): DatasetReport {
  const timeout = report.findings.find((f) => f.code === 'read-timeout');
  if (timeout) throw new UsageError(`${path}: ${timeout.message}`);
  return report;
}

function human(path: string, report: DatasetReport): string[] {
  const steps = report.role === 'training' ? ` · ${report.stepsPerEpoch} steps/epoch @${report.batchSize}` : '';
  const head = `${path}: ${report.format} · ${report.rows} rows${steps}${report.role ? ` · ${report.role}` : ''}`;
  const lines = report.findings.map((f) => {
    const j = toJson(f, report.format);
    return `${path}:${j.line}:${j.column}: ${f.severity} ${f.code}: ${f.message}`;
  });
  const { ids, answers } = report.keyTables;
  if (ids.full || answers.full)
    lines.push(`${path}: note: duplicate and overlap checks covered the first 2,000,000 distinct ids and answers.`);
  return [head, ...lines];
}

export const validateCommand: CliCommand = {
  name: 'validate',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: {
        batch: { type: 'string' },
        train: { type: 'string' },
        val: { type: 'string' },
        convention: { type: 'string', default: 'auto' },
        format: { type: 'string' },
        'read-timeout': { type: 'string' },
        'max-findings': { type: 'string' },
        ...AWS_OPTIONS,
        json: { type: 'boolean', default: false },
      },
      allowPositionals: true,
    });
    const batch = values.batch === undefined ? undefined : Number(values.batch);
    if (batch !== undefined && !(Number.isInteger(batch) && batch > 0))
      throw new UsageError(`--batch takes a positive whole number, not "${values.batch}".`);
    const convention = values.convention as DatasetConvention;
    if (!CONVENTIONS.includes(convention))
      throw new UsageError(`--convention is one of ${CONVENTIONS.join(', ')}, not "${values.convention}".`);
    const format = values.format as DatasetFormat | undefined;
    if (format && !['jsonl', 'json', 'csv', 'parquet'].includes(format))
      throw new UsageError(`--format is one of jsonl, json, csv, parquet, not "${format}".`);
    const readTimeout = values['read-timeout'] === undefined ? PARQUET_BUDGET_SECONDS : Number(values['read-timeout']);
    if (!(readTimeout > 0 && readTimeout <= 3600))
      throw new UsageError(`--read-timeout takes seconds between 1 and 3600, not "${values['read-timeout']}".`);
    const maxPerCode = values['max-findings'] === undefined ? DEFAULT_MAX_PER_CODE : Number(values['max-findings']);
    if (!(Number.isInteger(maxPerCode) && maxPerCode >= 0))
      throw new UsageError(`--max-findings takes a whole number, not "${values['max-findings']}".`);
    const paths = [...positionals];
    for (const p of [values.train, values.val]) if (p && !paths.includes(p)) paths.push(p);
    if (!paths.length) throw new UsageError('Name at least one dataset file or s3:// URI.');
    const { aws, explain } = awsFromOptions(values, io.signal);
    const roleOf = (p: string): DatasetRole | undefined =>
      p === values.train ? 'training' : p === values.val ? 'validation' : values.train || values.val ? undefined : roleFromName(p);
    for (const p of paths)
      if (!sourceFormat(p, format)) throw new UsageError(await whyNoFormat(p, '; pass --format jsonl|json|csv|parquet'));
    let result: DatasetsReport;
    try {
      result = await validateDatasets(
        paths.map((p) => ({ source: p, role: roleOf(p) })),
        {
          batchSize: { given: batch === undefined ? undefined : { batchSize: batch, source: '--batch' }, jobFiles: jobFilesBeside },
          convention,
          format,
          maxFindings: Infinity,
          maxPerCode,
          trackKeys: false,
        },
        { aws, explain, signal: io.signal, readTimeout },
      );
    } catch (error) {
      throw error instanceof DatasetUnreadable ? new UsageError(error.message) : error;
    } finally {
      aws.reset();
    }
    // Overlap findings are found after the checks: counted and summarized past --max-findings like the others.
    const reports = result.files.map((file, i) => readable(withOverlap(file), paths[i]));
    const { overlap } = result;
    // Counted per code, so findings summarized past --max-findings are in the totals.
    const total = (severity: string) =>
      reports.reduce(
        (n, r) => n + Object.entries(r.counts).reduce((m, [code, c]) => m + (SEVERITY[code as FindingCode] === severity ? (c ?? 0) : 0), 0),
        0,
      );
    const errors = total('error');
    if (values.json) {
      const files = reports.map((r, i) => {
        const of = (s: string) => r.findings.filter((f) => f.severity === s).map((f) => toJson(f, r.format));
        return {
          path: paths[i],
          format: r.format,
          rows: r.rows,
          errors: of('error'),
          warnings: of('warning'),
          info: of('info'),
          counts: r.counts,
          truncated: r.truncated,
        };
      });
      io.out(JSON.stringify({ files, overlap }, null, 2));
    } else {
      const lines = reports.flatMap((r, i) => human(paths[i], r));
      const warnings = total('warning');
      lines.push(
        `${errors ? '✗' : '✓'} ${reports.length} file${reports.length === 1 ? '' : 's'}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
      );
      io.out(lines.join('\n'));
    }
    return errors ? EXIT_FINDINGS : EXIT_CLEAN;
  },
};
