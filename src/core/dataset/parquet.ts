import { lineSpan } from './positions';
import type { RowChecker } from './rows';

const BATCH_ROWS = 10_000;

function sentence(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^parquet\s*/i, '').replace(/\.?$/, '.');
}

/** Reads a Parquet file in batches of rows. Row numbers are 1-based; a cut-short file gets one clear error instead of an exception. */
export async function readParquet(data: Uint8Array | ArrayBuffer, checker: RowChecker, tick?: () => Promise<void> | void): Promise<void> {
  // hyparquet is an ES module: loaded on first use, which also keeps it out of the startup path.
  const { parquetMetadata, parquetReadObjects } = await import('hyparquet');
  const buffer = data instanceof ArrayBuffer ? data : (data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
  let rows: number;
  let metadata: ReturnType<typeof parquetMetadata>;
  try {
    metadata = parquetMetadata(buffer);
    rows = Number(metadata.num_rows);
  } catch (error) {
    checker.report('unreadable', `The file cannot be read as Parquet (is it cut short or not Parquet at all?): ${sentence(error)}`, lineSpan(1), 0);
    return;
  }
  for (let start = 0; start < rows; start += BATCH_ROWS) {
    const end = Math.min(rows, start + BATCH_ROWS);
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
