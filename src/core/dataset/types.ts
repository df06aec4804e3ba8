import type { KeyTable } from './key-table';

/** The file formats the service reads. */
export type DatasetFormat = 'jsonl' | 'json' | 'csv' | 'parquet';

/** What a file is used for: row-count checks apply to training files only. */
export type DatasetRole = 'training' | 'validation' | 'evaluation';

/**
 * How the prompt strings are read: `auto` applies task checks to JSON-object prompts and an environment pack's checks
 * to rows that look like its own; `task`, `none`, or a pack's convention applied to every row (`datasetConventions()`).
 */
export type DatasetConvention = string;

type Severity = 'error' | 'warning' | 'info';

export type FindingCode =
  | 'json-syntax'
  | 'csv-syntax'
  | 'unreadable'
  | 'read-timeout'
  | 'not-object'
  | 'missing-prompt'
  | 'prompt-not-string'
  | 'empty-prompt'
  | 'flat-row'
  | 'inner-json-syntax'
  | 'missing-answer'
  | 'missing-id'
  | 'bad-answer'
  | 'duplicate-id'
  | 'duplicate-answer'
  | 'duplicate-prompt'
  | 'answer-leak'
  | 'too-few-rows'
  | 'small-dataset'
  | 'train-val-overlap'
  | 'shared-answers'
  | 'compressed'
  | 'nan-value';

/** A place in the file: 1-based line and column (UTF-16 code units, as editors count). */
export interface Position {
  line: number;
  column: number;
}

/** A range in the file; `end` is exclusive. */
export interface Span {
  start: Position;
  end: Position;
}

export interface RelatedLocation {
  span: Span;
  message: string;
  /** Another file, for train/validation overlap; absent means the same file. */
  path?: string;
}

export interface Finding {
  code: FindingCode;
  severity: Severity;
  message: string;
  span: Span;
  /** 1-based data row (the header of a CSV is not a row); 0 for file-level findings. */
  row: number;
  related?: RelatedLocation[];
}

export interface ValidateOptions {
  format: DatasetFormat;
  role?: DatasetRole;
  /** global_batch_size; default 128. */
  batchSize?: number;
  /** Where `batchSize` came from, in the user's words ("--batch", "train.mtrl.json", "the mtrl.datasets.batchSize setting"). */
  batchSizeSource?: string;
  convention?: DatasetConvention;
  /** Findings kept per file; the rest are only counted. Default 1,000. */
  maxFindings?: number;
  /** Findings kept per code; past it they are counted and one summary finding names the count and example rows. Default 100. */
  maxPerCode?: number;
  /** The training file's keys (its report's `keyTables`), when this is its validation file: ids, prompts and answers in both are recorded in `overlaps`. */
  against?: { ids: KeyLookup; answers: KeyLookup; prompts: KeyLookup };
  /** Keep every id, prompt and answer as strings in the report's maps (default true); false keeps only hashes, for files of millions of rows. */
  trackKeys?: boolean;
  /** The file's key tables will be the `against` of another file's validation (a training file beside its validation file). */
  compared?: boolean;
}

/** Line of a key's first occurrence: a Map or a KeyTable. */
interface KeyLookup {
  get(key: string): number | undefined;
}

/**
 * A key of this (validation) file that is also in the training file: the same task (its id, its prompt, or its answer where
 * the pack knows the answer is the task, as Wordle's secret word), or only a shared answer (math and support tasks share those by nature).
 */
export interface OverlapHit {
  kind: 'id' | 'prompt' | 'answer' | 'shared-answer';
  key: string;
  line: number;
  trainingLine: number;
}

/** What one file holds and what is wrong with it. */
export interface DatasetReport {
  format: DatasetFormat;
  role?: DatasetRole;
  rows: number;
  batchSize: number;
  stepsPerEpoch: number;
  findings: Finding[];
  /** Findings of each code, including those summarized or omitted. */
  counts: Partial<Record<FindingCode, number>>;
  /** True when some findings were summarized or omitted. */
  truncated: boolean;
  /** Findings beyond `maxFindings`, counted but not kept. */
  omitted: { error: number; warning: number; info: number };
  /** Every row id, prompt (as `promptKey`) and answer with the line of its first occurrence, for `compareTrainVal`; empty when `trackKeys` is false. */
  ids: Map<string, number>;
  prompts: Map<string, number>;
  answers: Map<string, number>;
  /** The answers that name their task (the pack's `answerIsTheTask`): in both files they are an overlap, not a shared answer. */
  taskAnswers: Set<string>;
  /** The same keys by hash: what `against` needs, at a fraction of the memory. */
  keyTables: { ids: KeyTable; answers: KeyTable; prompts: KeyTable };
  /** Filled when validated `against` a training file. */
  overlaps: OverlapHit[];
}

export const DEFAULT_BATCH_SIZE = 128;
export const DEFAULT_MAX_FINDINGS = 1000;
export const DEFAULT_MAX_PER_CODE = 100;

export const SEVERITY: Record<FindingCode, Severity> = {
  'json-syntax': 'error',
  'csv-syntax': 'error',
  unreadable: 'error',
  'read-timeout': 'error',
  'not-object': 'error',
  'missing-prompt': 'warning',
  'prompt-not-string': 'error',
  'empty-prompt': 'error',
  'flat-row': 'error',
  'inner-json-syntax': 'error',
  'missing-answer': 'error',
  'missing-id': 'error',
  'bad-answer': 'error',
  'duplicate-id': 'error',
  'duplicate-answer': 'warning',
  'duplicate-prompt': 'warning',
  'answer-leak': 'error',
  'too-few-rows': 'error',
  'small-dataset': 'info',
  'train-val-overlap': 'error',
  'shared-answers': 'info',
  compressed: 'warning',
  'nan-value': 'warning',
};
