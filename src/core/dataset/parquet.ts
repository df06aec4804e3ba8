import { open } from 'node:fs/promises';
import { lineSpan } from './positions';
import type { RowChecker } from './rows';

/** Rows decoded at once: a whole row group up to this size (decoding part of a group still decodes its pages). */
const BATCH_ROWS = 100_000;

function sentence(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^parquet\s*/i, '').replace(/\.?$/, '.');
}

/** Random access to a Parquet file's bytes: bytes in memory, a local file or an S3 object read by ranges. */
export interface ParquetBytes {
  byteLength: number;
  slice(start: number, end?: number): ArrayBuffer | Promise<ArrayBuffer>;
}

/** A local Parquet file read by position, so only the footer and the row groups being checked are in memory. */
export async function parquetFile(path: string): Promise<ParquetBytes & { close(): Promise<void> }> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    byteLength: size,
    async slice(start, end = size) {
      const bytes = Buffer.alloc(Math.max(0, end - start));
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytesRead) as ArrayBuffer;
    },
    close: () => handle.close(),
  };
}

/** [start, end) row ranges that follow the row groups, none longer than BATCH_ROWS. */
function batches(groupRows: number[], rows: number): [number, number][] {
  const out: [number, number][] = [];
  let groupStart = 0;
  for (const size of groupRows.length ? groupRows : [rows]) {
    for (let start = groupStart; start < groupStart + size; start += BATCH_ROWS) out.push([start, Math.min(groupStart + size, start + BATCH_ROWS)]);
    groupStart += size;
  }
  return out;
}

/** Reads a Parquet file in batches of rows, fetching only what each batch needs. Row numbers are 1-based; a cut-short file gets one clear error instead of an exception. */
export async function readParquet(data: Uint8Array | ParquetBytes, checker: RowChecker, tick?: () => Promise<void> | void): Promise<void> {
  // hyparquet is an ES module: loaded on first use, which also keeps it out of the startup path.
  const { parquetMetadataAsync, parquetReadObjects } = await import('hyparquet');
  const buffer: ParquetBytes = data instanceof Uint8Array ? (data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer) : data;
  let rows: number;
  let metadata: Awaited<ReturnType<typeof parquetMetadataAsync>>;
  try {
    metadata = await parquetMetadataAsync(buffer);
    rows = Number(metadata.num_rows);
  } catch (error) {
    checker.report('unreadable', `The file cannot be read as Parquet (is it cut short or not Parquet at all?): ${sentence(error)}`, lineSpan(1), 0);
    return;
  }
  for (const [start, end] of batches(metadata.row_groups.map((g) => Number(g.num_rows)), rows)) {
    let batch: Record<string, unknown>[];
    try {
      batch = await parquetReadObjects({ file: buffer, metadata, rowStart: start, rowEnd: end });
    } catch (error) {
      checker.report('unreadable', `Rows ${start + 1}–${end} of the Parquet file cannot be read: ${sentence(error)}`, lineSpan(start + 1), start + 1);
      return;
    }
    batch.forEach((value, i) => checker.check(value, { row: start + i + 1, line: start + i + 1, span: lineSpan(start + i + 1) }));
    await tick?.();
  }
}
