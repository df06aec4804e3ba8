import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { AwsClients } from '../aws/clients';
import type { Explain } from '../aws/errors';
import { getObject, objectByRanges, parseS3Uri } from '../aws/s3';
import {
  trainValOverlap,
  datasetConventions,
  formatFromName,
  parquetFile,
  validateParquet,
  roleFromName,
  validateDataset,
  type DatasetConvention,
  type DatasetFormat,
  type DatasetReport,
  type DatasetRole,
  type Finding,
  type Overlap,
  type ParquetBytes,
  DEFAULT_MAX_PER_CODE,
  SEVERITY,
  type FindingCode,
} from '../core/dataset';
import { batchSizeBesideDataset } from '../services/datasetBatch';
import { offThreadParquet, PARQUET_BUDGET_SECONDS } from '../services/parquet/offThread';
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

interface Options {
  batch?: number;
  convention: DatasetConvention;
  format?: DatasetFormat;
  json: boolean;
  readTimeout: number;
  maxPerCode: number;
  aws: AwsClients;
  explain: Explain;
  /** Aborts at the command's deadline. */
  signal?: AbortSignal;
}

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

async function open(path: string, options: Options): Promise<AsyncIterable<Uint8Array>> {
  const location = parseS3Uri(path);
  if (location) {
    const chunks = getObject(options.aws.s3(), location, undefined, options.signal);
    // Fail on the first chunk, so a missing object is a usage error and not a row finding.
    const iterator = chunks[Symbol.asyncIterator]();
    let first: IteratorResult<Uint8Array>;
    try {
      first = await iterator.next();
    } catch (error) {
      throw new UsageError(options.explain(error, `Reading ${path}`));
    }
    return (async function* () {
      if (!first.done) yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    })();
  }
  await mustBeFile(path);
  return createReadStream(path, { highWaterMark: 1024 * 1024 });
}

async function mustBeFile(path: string): Promise<void> {
  try {
    if (!(await stat(path)).isFile()) throw new UsageError(`${path} is not a file.`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `Cannot read ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`,
    );
  }
}

/** Parquet by random access: the footer, then the row groups being checked, so memory stays flat on large files. */
async function openParquet(path: string, options: Options): Promise<ParquetBytes & { close?(): Promise<void> }> {
  const location = parseS3Uri(path);
  if (!location) {
    await mustBeFile(path);
    return parquetFile(path);
  }
  try {
    return await objectByRanges(options.aws.s3(), location, options.signal);
  } catch (error) {
    throw new UsageError(options.explain(error, `Reading ${path}`));
  }
}

async function validateOne(path: string, role: DatasetRole | undefined, options: Options, against?: DatasetReport): Promise<DatasetReport> {
  const format = options.format ?? formatFromName(path);
  if (!format) throw new UsageError(`Cannot tell the format of ${path} from its name; pass --format jsonl|json|csv|parquet.`);
  const fromJob = options.batch === undefined && role === 'training' && !parseS3Uri(path) ? await batchSizeBesideDataset(path) : undefined;
  const run = {
    format,
    role,
    batchSize: options.batch ?? fromJob?.batchSize,
    batchSizeSource: options.batch !== undefined ? '--batch' : (fromJob?.source ?? 'the default'),
    convention: options.convention,
    maxFindings: Infinity,
    maxPerCode: options.maxPerCode,
    // Keys are kept as hashes only, so memory stays flat; the overlap is found while the validation file streams.
    trackKeys: false,
    against: against?.keyTables,
  };
  if (format !== 'parquet') return validateDataset(await open(path, options), run);
  const file = await openParquet(path, options);
  try {
    const report = await validateParquet(file, { ...run, parquetDecoder: offThreadParquet(options.readTimeout) });
    const timeout = report.findings.find((f) => f.code === 'read-timeout');
    if (timeout) throw new UsageError(`${path}: ${timeout.message}`);
    return report;
  } finally {
    await file.close?.();
  }
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
    const options: Options = {
      batch,
      convention,
      format,
      json: values.json,
      readTimeout,
      maxPerCode,
      aws,
      explain,
      signal: io.signal,
    };
    const roleOf = (p: string): DatasetRole | undefined =>
      p === values.train ? 'training' : p === values.val ? 'validation' : values.train || values.val ? undefined : roleFromName(p);
    const t = paths.findIndex((p) => roleOf(p) === 'training');
    const v = paths.findIndex((p) => roleOf(p) === 'validation');
    // The training file goes first, so the validation file can be checked against its keys.
    const order = t === -1 ? paths.map((_, i) => i) : [t, ...paths.map((_, i) => i).filter((i) => i !== t)];
    const reports: DatasetReport[] = new Array(paths.length);
    try {
      for (const i of order)
        reports[i] = await validateOne(paths[i], roleOf(paths[i]), options, i === v && t !== -1 ? reports[t] : undefined);
    } finally {
      aws.reset();
    }
    let overlap: Overlap = { ids: [], prompts: [], answers: [] };
    if (t !== -1 && v !== -1) {
      const result = trainValOverlap(reports[v], { training: paths[t], validation: paths[v] }, maxPerCode);
      overlap = result.overlap;
      // Overlap findings are found after the checks: counted and summarized past --max-findings like the others.
      for (const [i, findings] of [
        [t, result.training],
        [v, result.validation],
      ] as const) {
        if (!result.count) continue;
        for (const finding of findings) reports[i].findings.push(finding);
        reports[i].counts['train-val-overlap'] = result.count;
        if (result.count > maxPerCode) reports[i].truncated = true;
      }
      if (result.shared) {
        reports[v].findings.push(result.shared.finding);
        reports[v].counts['shared-answers'] = result.shared.count;
      }
    }
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
