import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { main } from '../../../src/cli';
import { jsonl, wordleRow } from '../core/dataset/helpers';

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['validate', ...args], { out: (t) => (out += t + '\n'), err: (t) => (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

describe('mtrl validate on gzip-compressed files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-gzip-'));
  const rows = jsonl(['crane', 'slate', 'pasta', 'riser', 'tower'].map((w, i) => wordleRow(w, `w${i}`)));

  it('reads a .jsonl.gz and a .csv.gz decompressed, counts every row, and says to upload it decompressed', async () => {
    writeFileSync(path.join(dir, 'words.jsonl.gz'), gzipSync(rows));
    const csv = [
      'prompt',
      ...rows
        .trim()
        .split('\n')
        .map((r) => `"${JSON.parse(r).prompt.replace(/"/g, '""')}"`),
    ].join('\n');
    writeFileSync(path.join(dir, 'words.csv.gz'), gzipSync(csv));
    const { code, out, err } = await run(path.join(dir, 'words.jsonl.gz'), path.join(dir, 'words.csv.gz'), '--json');
    const files = JSON.parse(out).files as { format: string; rows: number; warnings: { code: string; message: string }[] }[];
    assert.deepEqual(
      files.map((f) => [f.format, f.rows, f.warnings.map((w) => w.code)]),
      [
        ['jsonl', 5, ['compressed']],
        ['csv', 5, ['compressed']],
      ],
      err,
    );
    assert.match(files[0].warnings[0].message, /gzip-compressed; .*`gunzip -k FILE\.gz`/);
    assert.equal(code, 0);
  });

  it('a gzip file under a plain .jsonl name is read too, not 74 rows of binary syntax errors', async () => {
    writeFileSync(path.join(dir, 'plain.jsonl'), gzipSync(rows));
    const { out } = await run(path.join(dir, 'plain.jsonl'), '--json');
    const file = JSON.parse(out).files[0];
    assert.deepEqual([file.rows, file.errors, file.warnings.map((w: { code: string }) => w.code)], [5, [], ['compressed']]);
  });

  it('a gzip file cut short is one unreadable finding', async () => {
    writeFileSync(path.join(dir, 'cut.jsonl.gz'), gzipSync(rows).subarray(0, 40));
    const { code, out } = await run(path.join(dir, 'cut.jsonl.gz'), '--json');
    assert.equal(code, 1);
    assert.ok(JSON.parse(out).files[0].errors.some((e: { code: string }) => e.code === 'unreadable'));
  });
});
