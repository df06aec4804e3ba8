import { isAscii } from 'node:buffer';
import type { ColumnBatch } from '../../core/dataset/parquetBatch';
import type { PackedText } from '../../core/dataset/parquetText';

/** As hyparquet decodes text: UTF-8 with replacement characters, a leading byte order mark dropped. */
const utf8 = new TextDecoder();

/** The buffers a batch can hand over instead of copying. */
export function transferables(batch: ColumnBatch): ArrayBuffer[] {
  const buffers = batch.columns.flatMap((c) => (Array.isArray(c) ? [] : [c.bytes.buffer, c.ends.buffer, c.nulls?.buffer]));
  return buffers.filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}

/**
 * A column of packed text read value by value: an all-ASCII column as Latin-1 (ten times faster than UTF-8 decoding,
 * and small strings made in the young generation die there, where one big string sliced cost five times as much), any
 * other byte as UTF-8 decoding one value at a time, as hyparquet does.
 */
class TextValues {
  private readonly ascii: Buffer | undefined;

  constructor(private readonly text: PackedText) {
    this.ascii = isAscii(text.bytes) ? Buffer.from(text.bytes.buffer, text.bytes.byteOffset, text.bytes.byteLength) : undefined;
  }

  at(i: number): string | null {
    const { bytes, ends, nulls } = this.text;
    if (nulls?.[i]) return null;
    const start = i ? ends[i - 1] : 0;
    return this.ascii ? this.ascii.toString('latin1', start, ends[i]) : utf8.decode(bytes.subarray(start, ends[i]));
  }
}

/** The row objects back, with their keys in the same order; `from` and `to` (excluded) pick some, their text decoded only then. */
export class BatchRows {
  private readonly columns: (unknown[] | TextValues)[];

  constructor(private readonly batch: ColumnBatch) {
    this.columns = batch.columns.map((column) => (Array.isArray(column) ? column : new TextValues(column)));
  }

  rows(from = 0, to = this.batch.count): Record<string, unknown>[] {
    const { names } = this.batch;
    const rows = new Array<Record<string, unknown>>(to - from);
    for (let i = 0; i < rows.length; i++) rows[i] = {};
    for (let k = 0; k < names.length; k++) {
      const column = this.columns[k];
      const name = names[k];
      if (Array.isArray(column)) for (let i = 0; i < rows.length; i++) rows[i][name] = column[from + i];
      else for (let i = 0; i < rows.length; i++) rows[i][name] = column.at(from + i);
    }
    return rows;
  }
}
