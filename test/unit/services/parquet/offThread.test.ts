import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeParquet, parquetBuffer, parquetFile, validateParquet, type DatasetReport } from '../../../../src/core/dataset';
import { offThreadParquet } from '../../../../src/services/parquet/offThread';

const fixtures = path.resolve(__dirname, '../../../fixtures/datasets');

async function validateFile(name: string, decoder = offThreadParquet(), role?: 'training'): Promise<DatasetReport> {
  const file = await parquetFile(path.join(fixtures, name));
  try {
    return await validateParquet(file, { format: 'parquet', role, parquetDecoder: decoder });
  } finally {
    await file.close();
  }
}

const summary = (r: DatasetReport) => ({ rows: r.rows, findings: r.findings.map((f) => `${f.row} ${f.code} ${f.message}`) });

describe('Parquet decoded off the thread', () => {
  it('gives the same report as decoding in this thread', async () => {
    for (const name of ['training-data.parquet', 'validation-data.parquet']) {
      const off = await validateFile(name, offThreadParquet(), 'training');
      const here = await validateFile(name, decodeParquet, 'training');
      assert.ok(off.rows > 0);
      assert.deepEqual(summary(off), summary(here), name);
    }
  });

  it('gives up a file whose one corrupt byte makes the decoder loop, with one finding, while this thread keeps running', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 50);
    const started = Date.now();
    const report = await validateFile('hang-one-byte.parquet', offThreadParquet(2));
    clearInterval(timer);
    const seconds = (Date.now() - started) / 1000;
    assert.deepEqual(
      report.findings.map((f) => f.code),
      ['read-timeout'],
    );
    assert.match(report.findings[0].message, /^The Parquet file could not be read in 2 s: /);
    // The run ends (the worker is stopped) and the event loop ran all along.
    assert.ok(seconds < 60, `${seconds} s`);
    assert.ok(ticks >= 10, `${ticks} ticks of the event loop during the hang`);
  });

  it('a cut-short file is one unreadable finding, not an exception', async () => {
    const bytes = readFileSync(path.join(fixtures, 'validation-data.parquet'));
    const cut = parquetBuffer(bytes.subarray(0, bytes.length - 9));
    const report = await validateParquet(cut, { format: 'parquet', parquetDecoder: offThreadParquet() });
    assert.deepEqual(
      report.findings.map((f) => f.code),
      ['unreadable'],
    );
  });

  it('reads bytes through the parent, so S3 range reads stay where the client is', async () => {
    const bytes = readFileSync(path.join(fixtures, 'validation-data.parquet'));
    const ranges: string[] = [];
    const file = {
      byteLength: bytes.length,
      slice: async (start: number, end?: number) => (ranges.push(`${start}-${end}`), parquetBuffer(bytes.subarray(start, end))),
    };
    const report = await validateParquet(file, { format: 'parquet', parquetDecoder: offThreadParquet() });
    assert.equal(report.rows, 100);
    assert.ok(ranges.length >= 1);
  });
});
