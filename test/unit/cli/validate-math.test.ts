import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { compareTrainVal, validateDataset } from '../../../src/core/dataset';

/** A math task: answers recur (many sums are 10) and `a + 0` has an operand equal to its answer. */
const task = (id: string, a: number, b: number) =>
  JSON.stringify({
    prompt: JSON.stringify({ id, prompt: `Compute ${a} + ${b} and answer with the number only.`, answer: String(a + b) }),
  });

// Training: a + b for a < 16, b < 16 (256 tasks); validation: 200 new tasks, a from 16 (new ids, new prompts, recurring answers).
const training = Array.from({ length: 256 }, (_, i) => task(`train-${i}`, i % 16, Math.floor(i / 16)));
const validation = Array.from({ length: 200 }, (_, i) => task(`val-${i}`, 16 + (i % 20), Math.floor(i / 20) - 10));

async function* chunks(text: string) {
  yield Buffer.from(text);
}

interface FileReport {
  rows: number;
  errors: { code: string }[];
  warnings: { code: string }[];
  info: { code: string; message: string }[];
  counts: Record<string, number>;
}

async function validate(train: string[], val: string[]): Promise<{ code: number; files: FileReport[]; overlap: unknown }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-math-'));
  writeFileSync(path.join(dir, 'train.jsonl'), train.join('\n') + '\n');
  writeFileSync(path.join(dir, 'val.jsonl'), val.join('\n') + '\n');
  let out = '';
  const code = await main(['validate', '--train', path.join(dir, 'train.jsonl'), '--val', path.join(dir, 'val.jsonl'), '--json'], {
    out: (t) => (out += t),
    err: () => undefined,
    stdin: () => [],
  });
  const parsed = JSON.parse(out) as { files: FileReport[]; overlap: unknown };
  return { code, ...parsed };
}

describe('train/validation overlap and answer leaks on a math set', () => {
  it('new tasks with recurring answers and operands equal to answers validate clean, shared answers one counted note', async () => {
    const { code, files, overlap } = await validate(training, validation);
    assert.deepEqual(
      files.map((f) => [f.rows, [...f.errors, ...f.warnings].map((e) => e.code)]),
      [
        [256, []],
        [200, []],
      ],
    );
    assert.equal(code, 0);
    assert.deepEqual(overlap, { ids: [], prompts: [], answers: [] });
    const shared = files[1].info.filter((f) => f.code === 'shared-answers');
    assert.equal(shared.length, 1);
    assert.ok(files[1].counts['shared-answers'] > 10, JSON.stringify(files[1].counts));
    assert.match(shared[0].message, /share answers by nature, so this is not an overlap/);
  });

  it('a real copy of 10 training tasks is caught: 10 overlaps per file, by id', async () => {
    const { code, files, overlap } = await validate(training, [...validation.slice(0, 190), ...training.slice(40, 50)]);
    assert.equal(code, 1);
    assert.deepEqual(
      files.map((f) => f.counts['train-val-overlap']),
      [10, 10],
    );
    assert.deepEqual((overlap as { ids: string[] }).ids, Array.from({ length: 10 }, (_, i) => `train-${40 + i}`).sort());
  });

  it('plain-text prompts copied are caught by their prompt; the streamed and the independent comparison agree', async () => {
    const plain = (a: number, b: number) => JSON.stringify({ prompt: `Compute ${a} + ${b} and answer with the number only.` });
    const train = Array.from({ length: 256 }, (_, i) => plain(i % 16, Math.floor(i / 16)));
    const val = [...Array.from({ length: 50 }, (_, i) => plain(100 + i, 1)), ...train.slice(0, 3)];
    const { files, overlap } = await validate(train, val);
    assert.equal(files[1].counts['train-val-overlap'], 3);
    assert.equal((overlap as { prompts: string[] }).prompts.length, 3);
    const read = (rows: string[], role: 'training' | 'validation') =>
      validateDataset(chunks(rows.join('\n') + '\n'), { format: 'jsonl', role });
    const result = compareTrainVal(await read(train, 'training'), await read(val, 'validation'), { training: 't', validation: 'v' });
    assert.deepEqual(result.overlap, overlap);
    assert.equal(result.count, 3);
  });

  it('an answer in its own prompt is a leak for a secret word or a telling answer, never for a number', async () => {
    const row = (prompt: string, answer: string, id: string) => JSON.stringify({ prompt: JSON.stringify({ id, prompt, answer }) });
    const report = await validateDataset(
      chunks(
        [
          row('Compute 5 + 0 and answer with the number only.', '5', 'n1'),
          row('Is Paris the capital of France? Answer yes or no.', 'yes', 'n2'),
          row('Reply: reset the password from the account settings page.', 'reset the password from the account settings page', 'l1'),
          row('Guess the 5-letter word. Hint: crane', 'crane', 'w1'),
        ].join('\n'),
      ),
      { format: 'jsonl' },
    );
    assert.deepEqual(
      report.findings.filter((f) => f.code === 'answer-leak').map((f) => f.row),
      [3, 4],
    );
  });
});
