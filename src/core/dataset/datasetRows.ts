import { decodeParquet, parquetBuffer } from './parquet';
import type { DatasetFormat } from './types';
import { isFields } from '../text/json';

/**
 * A dataset's rows as plain objects, for matching rollouts to tasks (not for checking: the validator reports what is
 * wrong; this keeps what it can read and skips the rest). Rows of a CSV are keyed by its header.
 */
export async function datasetRows(bytes: Uint8Array, format: DatasetFormat): Promise<Record<string, unknown>[]> {
  if (format === 'parquet') {
    const rows: Record<string, unknown>[] = [];
    const data = parquetBuffer(bytes);
    const file = { byteLength: data.byteLength, slice: async (start: number, end?: number) => data.slice(start, end) };
    for await (const event of decodeParquet(file)) {
      if (event.kind === 'unreadable') throw new Error(event.message);
      rows.push(...event.rows);
    }
    return rows;
  }
  const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
  if (format === 'csv') {
    // csv-parse (30 KB) loads with the first CSV file, not at activation: the build keeps './csvParse' in dist/csv-parse.js.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parse } = require('./csvParse') as typeof import('./csvParse');
    return new Promise((resolve, reject) =>
      parse(text, { columns: true, skip_empty_lines: true, relax_column_count: true }, (error, rows: Record<string, unknown>[]) =>
        error ? reject(error) : resolve(rows),
      ),
    );
  }
  if (format === 'json' || /^\s*\[/.test(text)) {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter(isFields) : [];
  }
  const rows: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const row: unknown = JSON.parse(line);
      if (isFields(row)) rows.push(row);
    } catch {
      // A broken line names no task; the validator is where it is reported.
    }
  }
  return rows;
}
