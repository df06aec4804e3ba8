import type { ParquetEvent } from '../../core/dataset/parquet';

/** What the Parquet worker sends: a byte range it needs, a decoded event, the end, or an exception it could not turn into a finding. */
export type ToParent =
  | { type: 'read'; id: number; start: number; end?: number }
  | { type: 'event'; event: ParquetEvent }
  | { type: 'end' }
  | { type: 'failed'; message: string };

/** What the parent answers: the bytes of a read, or "go on" after checking a batch. */
export type FromParent = { type: 'bytes'; id: number; buffer: ArrayBuffer } | { type: 'next' };
