import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { jsonl, wordleRow } from '../core/dataset/helpers';

const fixtures = path.resolve(__dirname, '../../fixtures/datasets');

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['validate', ...args], { out: (t) => (out += t + '\n'), err: (t) => (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

describe('mtrl validate', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-validate-'));
  const train = path.join(dir, 'words.jsonl');
  const val = path.join(dir, 'held-out.jsonl');
  writeFileSync(train, jsonl([wordleRow('crane', 'a'), wordleRow('slate', 'b'), '{"prompt": "Guess", "answer": "pasta"}']));
  writeFileSync(val, jsonl([wordleRow('crane', 'v1'), wordleRow('riser', 'b')]));

  it('prints the exact JSON shape, with overlap from --train/--val, and exits 1 on errors', async () => {
    const { code, out } = await run('--train', train, '--val', val, '--batch', '2', '--json');
    assert.equal(code, 1);
    const parsed = JSON.parse(out);
    assert.deepEqual(Object.keys(parsed), ['files', 'overlap']);
    assert.deepEqual(parsed.overlap, { ids: ['b'], prompts: [], answers: ['crane'] });
    assert.deepEqual(Object.keys(parsed.files[0]), ['path', 'format', 'rows', 'errors', 'warnings', 'info', 'counts', 'truncated']);
    assert.deepEqual([parsed.files[0].counts['flat-row'], parsed.files[0].truncated], [1, false]);
    assert.deepEqual(
      parsed.files[0].errors.map((e: { line: number; code: string }) => `${e.line} ${e.code}`),
      ['3 flat-row', '1 train-val-overlap', '2 train-val-overlap'],
    );
    assert.deepEqual(Object.keys(parsed.files[0].errors[0]), ['line', 'column', 'code', 'message']);
    assert.equal(parsed.files[1].rows, 2);
  });

  it('exits 0 on the real files and reports CSV lines counting the header', async () => {
    const clean = await run(path.join(fixtures, 'training-data.csv'), path.join(fixtures, 'validation-data.parquet'));
    assert.equal(clean.code, 0, clean.out + clean.err);
    assert.match(clean.out, /training-data\.csv: csv · 600 rows · 4 steps\/epoch @128 · training/);
    const csv = path.join(dir, 'rows.csv');
    writeFileSync(csv, 'prompt\n"{""prompt"": ""Guess the 5-letter word"", ""answer"": ""abc"", ""id"": ""x""}"\n');
    const { out } = await run(csv, '--json');
    assert.deepEqual(
      JSON.parse(out).files[0].errors.map((e: { line: number; code: string }) => `${e.line} ${e.code}`),
      ['2 bad-answer'],
    );
  });

  it('usage and I/O problems exit 2 with one line', async () => {
    for (const args of [
      [path.join(dir, 'missing.jsonl')],
      ['--batch', 'x', train],
      ['--convention', 'odd', train],
      [path.join(dir, 'notes.txt')],
      [],
    ]) {
      const { code, err } = await run(...args);
      assert.equal(code, 2, args.join(' '));
      assert.equal(err.trim().split('\n').length, 1, err);
    }
  });

  it('a Parquet file the decoder cannot read in --read-timeout exits 2 with one line', async () => {
    const { code, err } = await run(path.join(fixtures, 'hang-one-byte.parquet'), '--read-timeout', '2');
    assert.equal(code, 2);
    assert.equal(err.trim().split('\n').length, 1, err);
    assert.match(err, /hang-one-byte\.parquet: The Parquet file could not be read in 2 s/);
    assert.equal((await run(train, '--read-timeout', '0')).code, 2);
  });

  it('repeated answers past --max-findings are one summary finding, counted per code in --json', async () => {
    const many = path.join(dir, 'many-train.jsonl');
    writeFileSync(many, jsonl(Array.from({ length: 300 }, (_, i) => wordleRow('crane', `r${i}`))));
    const { code, out } = await run(many, '--json', '--max-findings', '10');
    assert.equal(code, 0);
    const file = JSON.parse(out).files[0];
    assert.equal(file.counts['duplicate-answer'], 299);
    assert.equal(file.truncated, true);
    assert.equal(file.warnings.length, 11);
    assert.match(
      file.warnings[10].message,
      /^289 more duplicate-answer findings not listed \(299 in all\), e.g\. lines 12, 13, 14, 15, 16\.$/,
    );
    const human = await run(many, '--max-findings', '10');
    assert.match(human.out, /0 errors, 299 warnings/);
  });

  it('train/validation overlap past --max-findings is summarized too, and counted whole in --json and the totals', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => wordleRow(`w${String.fromCharCode(97 + (i % 26))}${i}`, `id${i}`));
    const leakTrain = path.join(dir, 'leak-train.jsonl');
    const leakVal = path.join(dir, 'leak-val.jsonl');
    writeFileSync(leakTrain, jsonl(rows));
    writeFileSync(leakVal, jsonl(rows));
    const { code, out } = await run(
      '--train',
      leakTrain,
      '--val',
      leakVal,
      '--batch',
      '2',
      '--json',
      '--max-findings',
      '5',
      '--convention',
      'task',
    );
    assert.equal(code, 1);
    const files = JSON.parse(out).files as Array<{
      errors: Array<{ code: string; message: string }>;
      counts: Record<string, number>;
      truncated: boolean;
    }>;
    for (const file of files) {
      const overlap = file.errors.filter((e) => e.code === 'train-val-overlap');
      assert.equal(overlap.length, 6, 'five listed, then one summary');
      assert.match(overlap[5].message, /^35 more train-val-overlap findings not listed \(40 in all\), e\.g\. lines 6, 7, 8, 9, 10\.$/);
      // Under the task convention an answer is not the task: a copied row is one overlap, by its id.
      assert.equal(file.counts['train-val-overlap'], 40);
      assert.equal(file.truncated, true);
    }
    assert.match(
      (await run('--train', leakTrain, '--val', leakVal, '--batch', '2', '--max-findings', '5', '--convention', 'task')).out,
      /80 errors/,
    );
  });
});

describe('mtrl validate: rows against global_batch_size, as the service counts them', () => {
  const real = path.resolve(__dirname, '../../fixtures/real-run/training_prompts.32.csv');
  const service =
    /"Training data has 32 prompts but global_batch_size is 32\. The number of prompts must be greater than the batch size\."/;

  it('the real 32-row file the service refused fails at --batch 32 with its sentence; 33 rows pass', async () => {
    const refused = await run('--train', real, '--batch', '32');
    assert.equal(refused.code, 1, refused.out);
    assert.match(refused.out, service);
    assert.match(refused.out, /32 from --batch/);
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-batch-'));
    const more = path.join(dir, 'training_prompts.csv');
    writeFileSync(more, readFileSync(real, 'utf8') + '"Resolve the customer\'s internet outage. Customer says: one more ticket."\n');
    const passed = await run('--train', more, '--batch', '32');
    assert.equal(passed.code, 0, passed.out);
    assert.match(passed.out, /33 rows/);
  });

  it('without --batch, takes the batch size from a job file beside the dataset whose train channel names it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-jobfile-'));
    const data = path.join(dir, 'training_prompts.csv');
    writeFileSync(data, readFileSync(real, 'utf8'));
    const document = {
      InputDataConfig: [{ ChannelName: 'train', DataSource: { S3DataSource: { S3Uri: 's3://bucket/datasets/training_prompts.parquet' } } }],
      TrainingConfig: { HyperParameters: { global_batch_size: '32' } },
    };
    const job = { JobName: 'support', JobCategory: 'AgentRFT', Region: 'us-west-2', RoleArn: 'arn:aws:iam::1:role/r' };
    writeFileSync(
      path.join(dir, 'support.mtrl.json'),
      JSON.stringify({ ...job, JobConfigSchemaVersion: '1.0.0', JobConfigDocument: document }),
    );
    const { code, out } = await run('--train', data);
    assert.equal(code, 1, out);
    assert.match(out, service);
    assert.match(out, /32 from support\.mtrl\.json/);
  });
});
