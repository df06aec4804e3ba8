import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parquetBuffer, parquetFile, validateDataset, validateParquet, type ParquetBytes } from '../../../../src/core/dataset';

// Parquet is read by random access (footer, then row groups) so a large file never sits in memory whole.
describe('parquet by ranges', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mtrl-parquet-'));
  const file = path.join(dir, 'train.parquet');
  const rows = 150_000;
  const task = (i: number) =>
    JSON.stringify({ prompt: 'Guess the 5-letter word', answer: i === 20_001 ? 'cr4ne' : 'crane', id: `wordle_train_${i}` });

  before(async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const prompts = Array.from({ length: rows }, (_, i) => task(i));
    writeFileSync(
      file,
      Buffer.from(parquetWriteBuffer({ columnData: [{ name: 'prompt', data: prompts, type: 'STRING' }], rowGroupSize: 25_000 })),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const options = {
    format: 'parquet' as const,
    role: 'training' as const,
    batchSize: 128,
    convention: 'auto' as const,
    maxFindings: Infinity,
  };
  const codes = (report: { findings: { code: string; row: number }[] }) => report.findings.map((f) => `${f.row} ${f.code}`);

  it('reads a multi-row-group file in slices much smaller than the file, with the same findings as the whole bytes', async () => {
    const local = await parquetFile(file);
    const slices: number[] = [];
    const counted: ParquetBytes = {
      byteLength: local.byteLength,
      slice: (start, end) => (slices.push((end ?? local.byteLength) - start), local.slice(start, end)),
    };
    try {
      const byRanges = await validateParquet(counted, options);
      const whole = await validateDataset(
        (async function* () {
          yield (await import('node:fs')).readFileSync(file);
        })(),
        options,
      );
      assert.equal(byRanges.rows, rows);
      assert.deepEqual(codes(byRanges), codes(whole));
      assert.ok(codes(byRanges).includes('20002 bad-answer'), codes(byRanges).join(', '));
      assert.ok(Math.max(...slices) < local.byteLength / 2, `largest slice ${Math.max(...slices)} of ${local.byteLength} bytes`);
    } finally {
      await local.close();
    }
  });

  it('reports a file cut short as unreadable instead of throwing', async () => {
    const cut = path.join(dir, 'cut.parquet');
    writeFileSync(cut, Buffer.from('PAR1 not really parquet'));
    const local = await parquetFile(cut);
    try {
      const report = await validateParquet(local, { ...options, role: undefined });
      assert.deepEqual(
        report.findings.map((f) => f.code),
        ['unreadable'],
      );
    } finally {
      await local.close();
    }
  });

  it('a corrupt structure the decoder trips over is one sentence, not its internal error (fuzz finds)', async () => {
    const found = path.resolve(__dirname, '../../../fixtures/fuzz/dataset-parquet');
    for (const name of ['footer-typeerror.parquet', 'unknown-page-type.parquet']) {
      const report = await validateParquet(parquetBuffer(readFileSync(path.join(found, name))), { format: 'parquet' });
      assert.deepEqual(
        report.findings.map((f) => f.code),
        ['unreadable'],
        name,
      );
      assert.match(report.findings[0].message, /its structure is corrupt\.$/, name);
      assert.doesNotMatch(report.findings[0].message, /undefined|Cannot read/, name);
    }
  });
});
