import type { ParquetColumns, ParquetEvent, RowChecks } from '../../core/dataset/parquet';
import type { RecordedOutcomes } from '../../core/dataset/rowOutcomes';
import type { ColumnBatch } from './batch';

/** What the worker is started with. */
export interface WorkerStart {
  byteLength: number;
  columns: ParquetColumns;
  /** Given, the worker checks the rows it decodes and sends their outcomes, not the rows. */
  checks?: RowChecks;
}

/** What the Parquet worker sends: a byte range it needs, a batch of rows or of checked rows' outcomes, the reason the rest cannot be read, the end, or an exception it could not turn into a finding. */
export type ToParent =
  | { type: 'read'; id: number; start: number; end?: number }
  | { type: 'rows'; batch: ColumnBatch }
  | { type: 'checked'; start: number; count: number; fileRows: number; outcomes: RecordedOutcomes }
  | { type: 'event'; event: Extract<ParquetEvent, { kind: 'unreadable' }> }
  | { type: 'end' }
  | { type: 'failed'; message: string };

/** What the parent answers: the bytes of a read, or "go on" after checking a batch. */
export type FromParent = { type: 'bytes'; id: number; buffer: ArrayBuffer } | { type: 'next' };
