import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { main } from '../../../src/cli';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { jsonl, wordleRow } from '../core/dataset/helpers';

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['validate', ...args], { out: (t) => (out += t + '\n'), err: (t) => (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

describe('mtrl validate on s3:// URIs (emulator, real SDK over HTTP)', () => {
  let emulator: Emulator;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    emulator = await startEmulator({ history: false });
    const body = Buffer.from(jsonl([wordleRow('crane', 'x1'), '{"prompt": "Guess", "answer": "slate"}']));
    emulator.world.buckets
      .get('mtrl-demo')!
      .set('broken/train.jsonl', { body, contentType: 'application/jsonl', lastModified: Date.now(), etag: '"x"' });
    const parquet = readFileSync(path.resolve(__dirname, '../../fixtures/workspace/datasets/bad-answers.parquet'));
    emulator.world.buckets
      .get('mtrl-demo')!
      .set('broken/answers.parquet', { body: parquet, contentType: 'application/octet-stream', lastModified: Date.now(), etag: '"p"' });
    // polars' default write_parquet(): ZSTD, written by polars itself (test/fixtures/datasets/writers/write.py).
    const zstd = readFileSync(path.resolve(__dirname, '../../fixtures/datasets/writers/polars-default.parquet'));
    emulator.world.buckets
      .get('mtrl-demo')!
      .set('polars/tickets.parquet', { body: zstd, contentType: 'application/octet-stream', lastModified: Date.now(), etag: '"z"' });
  });

  after(async () => {
    await emulator.close();
    process.env.AWS_ACCESS_KEY_ID = saved.id;
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  });

  it('streams the seeded train/val pair from S3 and compares them', async () => {
    const { code, out, err } = await run(
      's3://mtrl-demo/wordle/train.jsonl',
      's3://mtrl-demo/wordle/val.jsonl',
      '--endpoint',
      emulator.url,
      '--json',
    );
    const parsed = JSON.parse(out);
    assert.equal(parsed.files.length, 2, err);
    assert.ok(parsed.files[0].rows > 0 && parsed.files[1].rows > 0);
    assert.deepEqual(parsed.overlap, { ids: [], prompts: [], answers: [] });
    assert.deepEqual(
      parsed.files.map((f: { errors: unknown[]; warnings: unknown[] }) => [...f.errors, ...f.warnings]),
      [[], []],
    );
    assert.equal(code, 0);
  });

  it('reports row findings of an S3 object, and a missing object as a one-line I/O error', async () => {
    const broken = await run('s3://mtrl-demo/broken/train.jsonl', '--endpoint', emulator.url, '--json');
    assert.equal(broken.code, 1);
    assert.deepEqual(
      JSON.parse(broken.out).files[0].errors.map((e: { line: number; code: string }) => `${e.line} ${e.code}`),
      ['2 flat-row', '1 too-few-rows'],
    );
    const missing = await run('s3://mtrl-demo/nope.jsonl', '--endpoint', emulator.url);
    assert.equal(missing.code, 2);
    assert.equal(missing.err.trim().split('\n').length, 1, missing.err);
  });

  it('reads a Parquet object by byte ranges and reports its rows', async () => {
    const { code, out, err } = await run('s3://mtrl-demo/broken/answers.parquet', '--endpoint', emulator.url, '--json');
    assert.equal(code, 1, err);
    assert.deepEqual(
      JSON.parse(out).files[0].errors.map((e: { line: number; code: string }) => `${e.line} ${e.code}`),
      ['2 bad-answer', '3 bad-answer'],
    );
    const zstd = await run('s3://mtrl-demo/polars/tickets.parquet', '--endpoint', emulator.url, '--json');
    assert.deepEqual([zstd.code, JSON.parse(zstd.out).files[0].rows], [0, 300], zstd.err);
    const missing = await run('s3://mtrl-demo/nope.parquet', '--endpoint', emulator.url);
    assert.equal(missing.code, 2);
    assert.equal(missing.err.trim().split('\n').length, 1, missing.err);
  });
});
