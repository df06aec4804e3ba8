import { open } from 'node:fs/promises';
import { lineSpan, type RowPlace } from './positions';
import type { Span } from './types';
import { columnsChecked } from './checkedColumns';
import { otherKindOf } from './fileKinds';
import type { RowChecker } from './rows';
import { PackedBatches, toColumns, type ColumnBatch } from './parquetBatch';

/** Rows decoded at once: a whole row group up to this size (decoding part of a group still decodes its pages). */
const BATCH_ROWS = 100_000;

/** hyparquet's own complaints read as sentences; a JavaScript error from inside it, or one naming a missing value, means a corrupt structure it did not expect. */
function sentence(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (!(error instanceof Error) || error instanceof TypeError || /\bundefined\b|\bNaN\b|\[object /.test(text))
    return 'its structure is corrupt.';
  return text.replace(/^parquet\s*/i, '').replace(/\.?$/, '.');
}

/** Random access to a Parquet file's bytes: bytes in memory, a local file or an S3 object read by ranges. */
export interface ParquetBytes {
  byteLength: number;
  slice(start: number, end?: number): ArrayBuffer | Promise<ArrayBuffer>;
}

/** What decoding a Parquet file yields: batches of rows (0-based `start`, `fileRows` in the whole file), or one sentence saying why the rest cannot be read. */
export type ParquetEvent =
  | { kind: 'rows'; start: number; rows: Record<string, unknown>[]; fileRows: number; fileColumns?: string[] }
  | { kind: 'unreadable'; message: string; row: number; timedOut?: boolean };

/** Which columns to decode: those the checks read (the others are never fetched nor decompressed), or every column. */
export type ParquetColumns = 'checked' | 'all';

/** Turns Parquet bytes into row batches; the services run it off the editor's thread with a time budget. */
export type ParquetDecoder = (file: ParquetBytes, columns: ParquetColumns) => AsyncIterable<ParquetEvent>;

/** A local Parquet file read by position, so only the footer and the row groups being checked are in memory. */
export async function parquetFile(path: string): Promise<ParquetBytes & { close(): Promise<void> }> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    byteLength: size,
    async slice(start, end = size) {
      // A buffer of its own (no pool, no copy): the worker is handed it whole.
      const bytes = new Uint8Array(Math.max(0, end - start));
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
      return bytesRead === bytes.length ? bytes.buffer : bytes.buffer.slice(0, bytesRead);
    },
    close: () => handle.close(),
  };
}

/** Bytes held in memory as random access. */
export function parquetBuffer(data: Uint8Array): ArrayBuffer {
  return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
}

/** [start, end) row ranges that follow the row groups, none longer than BATCH_ROWS. */
function batches(groupRows: number[], rows: number): [number, number][] {
  const out: [number, number][] = [];
  let groupStart = 0;
  for (const size of groupRows.length ? groupRows : [rows]) {
    for (let start = groupStart; start < groupStart + size; start += BATCH_ROWS)
      out.push([start, Math.min(groupStart + size, start + BATCH_ROWS)]);
    groupStart += size;
  }
  return out;
}

/** Text values left as their UTF-8 bytes, for a caller that decodes them later in one piece. */
const textAsBytes = { stringFromBytes: (bytes: Uint8Array) => bytes as unknown as string };

/** Batches as columns (text as UTF-8 bytes packed in one buffer a column), for the worker to hand over without cloning. */
export type ParquetColumnsEvent = { kind: 'columns'; batch: ColumnBatch } | Extract<ParquetEvent, { kind: 'unreadable' }>;

/**
 * Decodes a Parquet file in batches of rows, fetching only what each batch needs; a cut-short file ends with one `unreadable`
 * event instead of an exception. As `columns`, plain text columns are read page by page into packed text, and any other
 * batch is hyparquet's rows turned into columns (text as bytes where every column read is flat).
 */
export function decodeParquet(file: ParquetBytes, columns?: ParquetColumns, form?: 'rows'): AsyncGenerator<ParquetEvent>;
export function decodeParquet(file: ParquetBytes, columns: ParquetColumns, form: 'columns'): AsyncGenerator<ParquetColumnsEvent>;
export async function* decodeParquet(
  file: ParquetBytes,
  columns: ParquetColumns = 'all',
  form: 'rows' | 'columns' = 'rows',
): AsyncGenerator<ParquetEvent | ParquetColumnsEvent> {
  // hyparquet (70 KB) loads with the first Parquet file, not at activation: the build keeps './hyparquet' in dist/hyparquet.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const hyparquet = require('./hyparquet') as typeof import('./hyparquet');
  const { compressors, parquetMetadataAsync, parquetReadObjects, parquetSchema } = hyparquet;
  let rows: number;
  let metadata: Awaited<ReturnType<typeof parquetMetadataAsync>>;
  let read: string[] | undefined;
  let names: string[];
  let parsers: typeof textAsBytes | undefined;
  let packed: PackedBatches | undefined;
  try {
    metadata = await parquetMetadataAsync(file);
    rows = Number(metadata.num_rows);
    const top = parquetSchema(metadata).children;
    names = top.map((c) => c.element.name);
    if (columns === 'checked') read = columnsChecked(names);
    const plain = top.filter((c) => !read || read.includes(c.element.name)).every((c) => !c.children.length);
    if (form === 'columns' && plain) parsers = textAsBytes;
    if (form === 'columns') packed = PackedBatches.of((from, to) => file.slice(from, to), metadata, read, hyparquet);
  } catch (error) {
    const head = await Promise.resolve(file.slice(0, Math.min(16, file.byteLength))).catch(() => undefined);
    yield {
      kind: 'unreadable',
      message:
        (head && otherKindOf(new Uint8Array(head), 'parquet')) ??
        `The file cannot be read as Parquet (is it cut short or not Parquet at all?): ${sentence(error)}`,
      row: 0,
    };
    return;
  }
  for (const [start, end] of batches(
    metadata.row_groups.map((g) => Number(g.num_rows)),
    rows,
  )) {
    let batch: ColumnBatch | undefined;
    // Any page it does not know, or a corrupt one, leaves this batch and the rest to hyparquet, which reads it or says why not.
    if (packed) batch = await packed.batch(start, end, rows).catch(() => (packed = undefined));
    if (batch) {
      yield { kind: 'columns', batch: start === 0 ? { ...batch, fileColumns: names } : batch };
      continue;
    }
    let objects: Record<string, unknown>[];
    try {
      objects = await parquetReadObjects({ file, metadata, compressors, parsers, columns: read, rowStart: start, rowEnd: end });
    } catch (error) {
      yield {
        kind: 'unreadable',
        message: `Rows ${start + 1}–${end} of the Parquet file cannot be read: ${sentence(error)}`,
        row: start + 1,
      };
      return;
    }
    const fileColumns = start === 0 ? names : undefined;
    if (form === 'columns') yield { kind: 'columns', batch: { ...toColumns(start, rows, objects), fileColumns } };
    else yield { kind: 'rows', start, rows: objects, fileRows: rows, fileColumns };
  }
}

/** A Parquet row's place: its number is its line, and its span is made only for a finding (one object a row, not four). */
class ParquetRow implements RowPlace {
  constructor(readonly row: number) {}

  get line(): number {
    return this.row;
  }

  get span(): Span {
    return lineSpan(this.row);
  }
}

/** Checks decoded Parquet rows; row numbers are 1-based. */
export async function readParquet(
  file: ParquetBytes,
  checker: RowChecker,
  decoder: ParquetDecoder = decodeParquet,
  tick?: () => Promise<void> | void,
): Promise<void> {
  for await (const event of decoder(file, 'checked')) {
    if (event.kind === 'unreadable') {
      checker.report(event.timedOut ? 'read-timeout' : 'unreadable', event.message, lineSpan(Math.max(1, event.row)), event.row);
      return;
    }
    if (event.start === 0) checker.expectRows(event.fileRows, event.fileColumns);
    event.rows.forEach((value, i) => checker.check(value, new ParquetRow(event.start + i + 1)));
    await tick?.();
  }
}
