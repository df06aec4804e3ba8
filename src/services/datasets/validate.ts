import {
  DEFAULT_MAX_PER_CODE,
  trainValOverlap,
  type DatasetConvention,
  type DatasetFormat,
  type DatasetReport,
  type DatasetRole,
  type Finding,
  type FindingCode,
  type Overlap,
} from '../../core/dataset';
import { batchSizeFor, type BatchSizeRule } from './batchSize';
import { trainValPair } from './pairing';
import { sourceName, validateSource, type DatasetSource, type SourceContext } from './sources';

/** One file to check and its role (training, validation, evaluation, or none). */
export interface DatasetFile {
  source: DatasetSource;
  role?: DatasetRole;
}

export interface ValidateDatasetsOptions {
  batchSize: BatchSizeRule;
  convention?: DatasetConvention;
  /** Read every file as this format rather than the one its name says. */
  format?: DatasetFormat;
  /** Findings listed per code and file; the rest are counted in one summary finding. */
  maxPerCode?: number;
  maxFindings?: number;
  /** Keep every id, prompt and answer of a lone or training file (for a later `compareTrainVal`); default true. */
  trackKeys?: boolean;
  /** Called between pieces of work: the editor yields to typing here and throws to cancel. */
  tick?: () => Promise<void> | void;
}

/** A file's report, and the train/validation overlap found after its checks (not in `report.findings`). */
export interface FileReport {
  name: string;
  report: DatasetReport;
  overlap: { findings: Finding[]; counts: Partial<Record<FindingCode, number>>; truncated: boolean };
}

export interface DatasetsReport {
  files: FileReport[];
  /** Tasks the validation file shares with the training file (empty without a pair). */
  overlap: Overlap;
}

/**
 * Checks datasets the way the service reads them: the batch size by one rule (from the pair's training file), the training
 * file first so the validation file is checked against its keys as it streams, then their overlap. Reports in the given order.
 */
export async function validateDatasets(
  files: readonly DatasetFile[],
  options: ValidateDatasetsOptions,
  context: SourceContext = {},
): Promise<DatasetsReport> {
  const pair = trainValPair(files.map((f) => f.role));
  const training = pair.training === -1 ? undefined : sourceName(files[pair.training].source);
  const batch = await batchSizeFor(training, options.batchSize);
  const maxPerCode = options.maxPerCode ?? DEFAULT_MAX_PER_CODE;
  const run = {
    format: options.format,
    batchSize: batch?.batchSize,
    batchSizeSource: batch?.source,
    convention: options.convention,
    maxFindings: options.maxFindings,
    maxPerCode,
    trackKeys: options.trackKeys,
    tick: options.tick,
  };
  const order =
    pair.training === -1 ? files.map((_, i) => i) : [pair.training, ...files.map((_, i) => i).filter((i) => i !== pair.training)];
  const reports: DatasetReport[] = new Array(files.length);
  for (const i of order) {
    // Keys are kept as hashes only, so memory stays flat; the overlap is found while the validation file streams.
    const against =
      i === pair.validation
        ? { against: reports[pair.training].keyTables, trackKeys: false }
        : i === pair.training && pair.validation !== -1
          ? { compared: true }
          : {};
    reports[i] = await validateSource(files[i].source, { ...run, role: files[i].role, ...against }, context);
  }
  const out: FileReport[] = reports.map((report, i) => ({
    name: sourceName(files[i].source),
    report,
    overlap: { findings: [], counts: {}, truncated: false },
  }));
  if (pair.validation === -1) return { files: out, overlap: { ids: [], prompts: [], answers: [] } };
  const result = trainValOverlap(
    reports[pair.validation],
    { training: out[pair.training].name, validation: out[pair.validation].name },
    maxPerCode,
  );
  if (result.count)
    for (const [i, findings] of [
      [pair.training, result.training],
      [pair.validation, result.validation],
    ] as const)
      out[i].overlap = { findings: [...findings], counts: { 'train-val-overlap': result.count }, truncated: result.count > maxPerCode };
  if (result.shared) {
    const held = out[pair.validation].overlap;
    held.findings.push(result.shared.finding);
    held.counts['shared-answers'] = result.shared.count;
  }
  return { files: out, overlap: result.overlap };
}

/** A file's report with its overlap findings and counts added, as one list. */
export function withOverlap(file: FileReport): DatasetReport {
  const { report, overlap } = file;
  return {
    ...report,
    findings: [...report.findings, ...overlap.findings],
    counts: { ...report.counts, ...overlap.counts },
    truncated: report.truncated || overlap.truncated,
  };
}
