import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatasetUnreadable, validateSource } from '../../../../src/services/datasets/sources';
import { validateDatasets, withOverlap } from '../../../../src/services/datasets/validate';
import { jsonl, wordleRow } from '../../core/dataset/helpers';
import { withEmulator } from '../../emulator/helpers';

const fixtures = path.resolve(__dirname, '../../../fixtures/workspace/datasets');
const rows = (n: number, prefix: string) => jsonl(Array.from({ length: n }, (_, i) => wordleRow('crane', `${prefix}_${i}`)));
const codes = (findings: { code: string }[]) => findings.map((f) => f.code);

describe('services/datasets: one service opens, sizes, pairs and reports every dataset', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'mtrl-datasets-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a local file, its text in memory and its bytes to the same report', async () => {
    const file = path.join(fixtures, 'broken.jsonl');
    const text = readFileSync(file, 'utf8');
    const options = { role: 'training' as const, batchSize: 1 };
    const fromDisk = await validateSource(file, options);
    const fromText = await validateSource({ name: file, text }, options);
    const fromBytes = await validateSource({ name: file, bytes: new TextEncoder().encode(text) }, options);
    assert.ok(fromDisk.findings.length > 0, 'the broken fixture has findings');
    for (const report of [fromText, fromBytes]) {
      assert.equal(report.rows, fromDisk.rows);
      assert.deepEqual(codes(report.findings), codes(fromDisk.findings));
    }
  });

  it('reads Parquet from a local path and from bytes (the editor reads a Parquet file of another scheme as bytes)', async () => {
    const file = path.join(fixtures, 'bad-answers.parquet');
    const fromDisk = await validateSource(file, {});
    const fromBytes = await validateSource({ name: file, bytes: readFileSync(file) }, {});
    assert.equal(fromDisk.format, 'parquet');
    assert.deepEqual(codes(fromDisk.findings), ['bad-answer', 'bad-answer']);
    assert.deepEqual(codes(fromBytes.findings), codes(fromDisk.findings));
  });

  it('says in one sentence why a source cannot be read: no such file, a folder, a name with no format', async () => {
    const cases: [string, RegExp][] = [
      [path.join(dir, 'nope.jsonl'), /^Cannot read .*nope\.jsonl: no such file\.$/],
      [path.join(dir, 'folder.jsonl'), /folder\.jsonl is not a file\.$/],
      [path.join(dir, 'notes.txt'), /^Cannot tell the format of .*notes\.txt from its name\.$/],
    ];
    mkdirSync(path.join(dir, 'folder.jsonl'));
    for (const [source, message] of cases)
      await assert.rejects(validateSource(source, {}), (e: unknown) => e instanceof DatasetUnreadable && message.test(e.message));
  });

  it('streams s3:// objects (text and Parquet by byte ranges) from the emulator; a missing object is unreadable, not a row finding', async () => {
    await withEmulator({ history: false }, async (emulator, aws) => {
      const parquet = readFileSync(path.join(fixtures, 'bad-answers.parquet'));
      emulator.world.buckets
        .get('mtrl-demo')!
        .set('checks/answers.parquet', { body: parquet, contentType: 'application/octet-stream', lastModified: Date.now(), etag: '"p"' });
      const context = { aws, explain: (_e: unknown, action: string) => `${action} failed: explained` };
      const { files, overlap } = await validateDatasets(
        [
          { source: 's3://mtrl-demo/wordle/train.jsonl', role: 'training' },
          { source: 's3://mtrl-demo/wordle/val.jsonl', role: 'validation' },
        ],
        { batchSize: {} },
        context,
      );
      assert.ok(files[0].report.rows > 0 && files[1].report.rows > 0);
      assert.deepEqual(overlap, { ids: [], prompts: [], answers: [] });
      const fromS3 = await validateSource('s3://mtrl-demo/checks/answers.parquet', {}, context);
      assert.deepEqual(codes(fromS3.findings), ['bad-answer', 'bad-answer']);
      await assert.rejects(
        validateSource('s3://mtrl-demo/nope.jsonl', {}, context),
        (e: unknown) => e instanceof DatasetUnreadable && e.message === 'Reading s3://mtrl-demo/nope.jsonl failed: explained' && !!e.reason,
      );
    });
  });

  it('finds the batch size by one rule: given, else a job file that trains the training file, else the fallback', async () => {
    const train = path.join(dir, 'train.jsonl');
    writeFileSync(train, rows(40, 't'));
    const job = (size: string) => ({
      name: 'wordle.mtrl.json',
      text: JSON.stringify({
        JobName: 'w',
        JobCategory: 'AgentRFT',
        Region: 'us-west-2',
        RoleArn: 'arn:aws:iam::1:role/r',
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: {
          InputDataConfig: [{ ChannelName: 'train', DataSource: { S3DataSource: { S3Uri: 's3://b/wordle/train.parquet' } } }],
          TrainingConfig: { HyperParameters: { global_batch_size: size } },
        },
      }),
    });
    const asked: string[] = [];
    const jobFiles = async (training: string) => (asked.push(training), [job('64')]);
    const otherwise = { batchSize: 8, source: 'the setting' };
    const judged = async (rule: Parameters<typeof validateDatasets>[1]['batchSize']) => {
      const { report } = (await validateDatasets([{ source: train, role: 'training' }], { batchSize: rule })).files[0];
      return `${report.batchSize} ${report.findings.find((f) => f.code === 'too-few-rows' || f.code === 'small-dataset')?.message ?? ''}`;
    };
    assert.match(await judged({ given: { batchSize: 50, source: '--batch' }, jobFiles, otherwise }), /^50 .*50 from --batch\)\.$/);
    assert.deepEqual(asked, [], 'a given batch size reads no job file');
    assert.match(await judged({ jobFiles, otherwise }), /^64 .*64 from wordle\.mtrl\.json\)\.$/);
    assert.deepEqual(asked, [train]);
    assert.match(await judged({ jobFiles: async () => [], otherwise }), /^8 .*from the setting\)\.$/);
    assert.match(await judged({}), /^128 .*128 from the default\)\.$/);
  });

  it('pairs train and validation whatever their order: the validation file is checked against the training keys, the overlap on both', async () => {
    const train = path.join(dir, 'pair-train.jsonl');
    const val = path.join(dir, 'pair-val.jsonl');
    writeFileSync(train, rows(3, 't'));
    writeFileSync(val, jsonl([wordleRow('slate', 't_1'), wordleRow('pasta', 'v_1')]));
    let jobFilesAskedFor: string | undefined;
    const { files, overlap } = await validateDatasets(
      [
        { source: val, role: 'validation' },
        { source: train, role: 'training' },
      ],
      { batchSize: { jobFiles: async (t) => ((jobFilesAskedFor = t), []) } },
    );
    assert.equal(jobFilesAskedFor, train, 'the batch size is the training file’s, whichever comes first');
    assert.deepEqual(
      files.map((f) => [f.name, f.report.role]),
      [
        [val, 'validation'],
        [train, 'training'],
      ],
    );
    assert.deepEqual(overlap.ids, ['t_1']);
    for (const file of files) {
      assert.deepEqual(codes(file.overlap.findings), ['train-val-overlap']);
      assert.equal(file.overlap.counts['train-val-overlap'], 1);
      assert.ok(!codes(file.report.findings).includes('train-val-overlap'), 'the overlap is kept apart from the file’s own findings');
      const merged = withOverlap(file);
      assert.deepEqual(codes(merged.findings).slice(-1), ['train-val-overlap']);
      assert.equal(merged.counts['train-val-overlap'], 1);
    }
    const alone = await validateDatasets([{ source: val, role: 'validation' }], { batchSize: {} });
    assert.deepEqual(alone.files[0].overlap, { findings: [], counts: {}, truncated: false });
  });
});
