import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  decodeParquet,
  parquetBuffer,
  parquetFile,
  validateParquet,
  type DatasetReport,
  type ParquetBytes,
} from '../../../../src/core/dataset';
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

  describe('a file of several row groups with a column the checks do not read', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mtrl-parquet-worker-'));
    const rows = 30_000;
    // Notes that do not compress: most of the file's bytes.
    const extra = Array.from({ length: rows }, (_, i) =>
      Array.from({ length: 40 }, (_, k) => (Math.imul(i + 1, 2654435761) ^ Math.imul(k + 1, 40503)) >>> 0).join(' '),
    );
    const word = (i: number) =>
      ['crane', 'slate', 'cr4ne', 'ÉCLAT', 'trace'][i % 5] + (i % 7 === 0 ? '' : String.fromCharCode(97 + (i % 26)));
    const files = {
      // Tasks inside the prompt string, some answers repeated or not a word, some prompts non-ASCII.
      wrapped: [
        { name: 'extra', data: extra, type: 'STRING' as const },
        {
          name: 'prompt',
          data: Array.from({ length: rows }, (_, i) =>
            JSON.stringify({
              prompt: i % 3 ? 'Guess the 5-letter word' : 'Devinez le mot — 5 lettres',
              answer: word(i),
              id: `t${i % 29_000}`,
            }),
          ),
          type: 'STRING' as const,
        },
      ],
      // Flat rows: answer and id beside the prompt.
      flat: [
        { name: 'id', data: Array.from({ length: rows }, (_, i) => `t${i % 29_000}`), type: 'STRING' as const },
        { name: 'extra', data: extra, type: 'STRING' as const },
        { name: 'prompt', data: Array.from({ length: rows }, (_, i) => `Solve task ${i % 25_000}`), type: 'STRING' as const },
        { name: 'answer', data: Array.from({ length: rows }, (_, i) => word(i)), type: 'STRING' as const },
      ],
    };

    before(async () => {
      const { parquetWriteBuffer } = await import('hyparquet-writer');
      for (const [name, columnData] of Object.entries(files))
        writeFileSync(path.join(dir, `${name}.parquet`), Buffer.from(parquetWriteBuffer({ columnData, rowGroupSize: 10_000 })));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const options = { format: 'parquet' as const, role: 'training' as const, maxFindings: Infinity, maxPerCode: Infinity };
    const listed = (r: DatasetReport) => ({ rows: r.rows, findings: r.findings.map((f) => `${f.row} ${f.code} ${f.message}`) });

    for (const name of Object.keys(files)) {
      it(`${name}: the worker gives the same findings in the same order as every column decoded in this thread`, async () => {
        const file = await parquetFile(path.join(dir, `${name}.parquet`));
        try {
          const off = await validateParquet(file, { ...options, parquetDecoder: offThreadParquet() });
          const here = await validateParquet(file, { ...options, parquetDecoder: (bytes) => decodeParquet(bytes, 'all') });
          assert.equal(off.rows, rows);
          assert.ok(off.findings.length > 100, `${off.findings.length} findings`);
          assert.deepEqual(listed(off), listed(here));
        } finally {
          await file.close();
        }
      });
    }

    it('reads only the bytes of the columns the checks use', async () => {
      const file = await parquetFile(path.join(dir, 'wrapped.parquet'));
      let read = 0;
      const counted: ParquetBytes = {
        byteLength: file.byteLength,
        slice: (start, end) => ((read += (end ?? file.byteLength) - start), file.slice(start, end)),
      };
      try {
        await validateParquet(counted, { ...options, parquetDecoder: offThreadParquet() });
        assert.ok(read < file.byteLength / 2, `${read} of ${file.byteLength} bytes read`);
      } finally {
        await file.close();
      }
    });
  });
});
