import type { ParquetColumns, ParquetEvent } from '../../core/dataset/parquet';
import type { ColumnBatch } from '../../core/dataset/parquetBatch';

/** What the worker is started with. */
export interface WorkerStart {
  byteLength: number;
  columns: ParquetColumns;
}

/** What the Parquet worker sends: a byte range it needs, a batch of rows, the reason the rest cannot be read, the end, or an exception it could not turn into a finding. */
export type ToParent =
  | { type: 'read'; id: number; start: number; end?: number }
  | { type: 'rows'; batch: ColumnBatch }
  | { type: 'event'; event: Exclude<ParquetEvent, { kind: 'rows' }> }
  | { type: 'end' }
  | { type: 'failed'; message: string };

/** What the parent answers: the bytes of a read, or "go on" after checking a batch. */
export type FromParent = { type: 'bytes'; id: number; buffer: ArrayBuffer } | { type: 'next' };
