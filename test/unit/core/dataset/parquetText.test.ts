import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeParquet, parquetBuffer, type ParquetBytes, type ParquetColumns } from '../../../../src/core/dataset/parquet';
import type { ColumnBatch } from '../../../../src/core/dataset/parquetBatch';
import { BatchRows } from '../../../../src/services/parquet/batch';

const datasets = path.resolve(__dirname, '../../../fixtures/datasets');
// pages/: pyarrow's page layouts (pages/write.py); writers/: every codec of pyarrow, pandas, polars and DuckDB (writers/write.py).
const files = [
  ...readdirSync(path.join(datasets, 'pages')).map((f) => path.join('pages', f)),
  ...readdirSync(path.join(datasets, 'writers')).map((f) => path.join('writers', f)),
].filter((f) => f.endsWith('.parquet'));

const bytesOf = (name: string): ParquetBytes => parquetBuffer(readFileSync(path.join(datasets, name))) as unknown as ParquetBytes;

/** hyparquet's own rows of the file, text decoded by hyparquet. */
async function hyparquetRows(file: ParquetBytes, columns: ParquetColumns): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const event of decodeParquet(file, columns)) {
    assert.equal(event.kind, 'rows', JSON.stringify(event));
    if (event.kind === 'rows') rows.push(...event.rows);
  }
  return rows;
}

/** The batches as columns, and their rows as the parent builds them. */
async function columnRows(
  file: ParquetBytes,
  columns: ParquetColumns,
): Promise<{ batches: ColumnBatch[]; rows: Record<string, unknown>[] }> {
  const batches: ColumnBatch[] = [];
  for await (const event of decodeParquet(file, columns, 'columns')) {
    assert.equal(event.kind, 'columns', JSON.stringify(event));
    if (event.kind === 'columns') batches.push(event.batch);
  }
  return { batches, rows: batches.flatMap((b) => new BatchRows(b).rows()) };
}

const packed = (batches: ColumnBatch[]) => batches.every((b) => b.columns.every((c) => !Array.isArray(c)));

describe('Parquet text read page by page into packed columns', () => {
  for (const name of files) {
    it(`${name}: the same rows as hyparquet's, every text column packed`, async () => {
      const file = bytesOf(name);
      for (const columns of ['checked', 'all'] as const) {
        const { batches, rows } = await columnRows(file, columns);
        assert.deepEqual(rows, await hyparquetRows(file, columns), columns);
        assert.ok(packed(batches), `${columns}: a column was left to hyparquet`);
      }
    });
  }

  it('keeps nulls, empty strings and non-ASCII text of dictionary pages across row groups', async () => {
    const { batches, rows } = await columnRows(bytesOf('pages/dictionary-nulls.parquet'), 'checked');
    assert.equal(rows.length, 2000);
    assert.ok(batches.length >= 3, 'one batch a row group');
    assert.equal(rows[0].prompt, null);
    assert.equal(rows[11].prompt, '');
    assert.match(String(rows[1].prompt), /Résous 1 ☕ — étape 1/);
  });

  it('reads a row group larger than a batch once, in batches of 100,000 rows, and a DELTA_BYTE_ARRAY page through hyparquet', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mtrl-parquet-text-'));
    try {
      const { parquetWriteFile } = await import('hyparquet-writer');
      const data = Array.from({ length: 230_000 }, (_, i) => (i % 5000 === 0 ? null : `p${i} é`));
      const big = path.join(dir, 'big.parquet');
      parquetWriteFile({
        filename: big,
        columnData: [{ name: 'prompt', data, type: 'STRING' }],
        rowGroupSize: 230_000,
        pageSize: 64 * 1024,
      });
      const { batches, rows } = await columnRows(parquetBuffer(readFileSync(big)) as unknown as ParquetBytes, 'checked');
      assert.deepEqual(
        batches.map((b) => [b.start, b.count]),
        [
          [0, 100_000],
          [100_000, 100_000],
          [200_000, 30_000],
        ],
      );
      assert.ok(packed(batches));
      assert.deepEqual(
        rows.map((r) => r.prompt),
        data,
      );

      const delta = path.join(dir, 'delta.parquet');
      parquetWriteFile({
        filename: delta,
        columnData: [{ name: 'prompt', data: ['a', null, 'abc'], type: 'STRING', encoding: 'DELTA_BYTE_ARRAY' }],
      });
      const other = await columnRows(parquetBuffer(readFileSync(delta)) as unknown as ParquetBytes, 'checked');
      assert.deepEqual(other.rows, [{ prompt: 'a' }, { prompt: null }, { prompt: 'abc' }]);
      // hyparquet's values with a null stay an array (toColumns packs only columns without one).
      assert.ok(!packed(other.batches), 'DELTA_BYTE_ARRAY is left to hyparquet');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves a corrupt page to hyparquet, which names the rows it cannot read', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(datasets, 'pages/v2-plain-zstd.parquet')));
    // A byte inside the second row group's compressed page.
    bytes[5000] ^= 0xff;
    const file = parquetBuffer(bytes) as unknown as ParquetBytes;
    const events: string[] = [];
    for await (const event of decodeParquet(file, 'checked', 'columns')) events.push(event.kind === 'columns' ? 'columns' : event.message);
    const here: string[] = [];
    for await (const event of decodeParquet(file, 'checked')) here.push(event.kind === 'rows' ? 'columns' : event.message);
    assert.deepEqual(events, here);
    assert.deepEqual(events, ['columns', 'Rows 701–1400 of the Parquet file cannot be read: invalid zstd data.']);
  });
});
