import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  decodeParquet,
  parquetFile,
  validateParquet,
  type DatasetReport,
  type ParquetBytes,
  type ValidateOptions,
} from '../../../../src/core/dataset';
import { OutcomeRecorder, ParquetRow, replayOutcomes, type HashedOutcomes } from '../../../../src/core/dataset/rowOutcomes';
import { offThreadParquet } from '../../../../src/services/parquet/offThread';

// The worker checks the rows it decodes and the parent applies their recorded outcomes (src/core/dataset/rowOutcomes.ts):
// the report must be the one checking every row on one thread gives, finding for finding, across batch boundaries.
describe('Parquet rows checked on the worker', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mtrl-checked-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Rows of every kind the checks tell apart: repeats across row groups, leaks, missing fields, broken JSON, text that is not ASCII, nulls. */
  function prompt(i: number): string | null {
    if (i % 97 === 0) return null;
    if (i % 89 === 0) return '{"prompt": "cut short", "answer": ';
    if (i % 83 === 0) return 'plain text, not a task';
    if (i % 79 === 0) return JSON.stringify({ prompt: 'Compute 2 + 3.', id: `math-${i}` });
    if (i % 61 === 0) return JSON.stringify({ prompt: 'Guess the 5-letter word', answer: 'crane' });
    const answer = i % 7 === 0 ? 'crâne' : i % 5 === 0 ? 'slate' : `w${String(i % 1000).padStart(4, '0')}`;
    const id = i % 13 === 0 ? `dup-${i % 3}` : `tâche-${i}`;
    const text = i % 11 === 0 ? `Guess the 5-letter word (not ${answer})` : i % 17 === 0 ? 'Solve it' : 'Guess the 5-letter word';
    return JSON.stringify({ prompt: text, answer, id });
  }

  async function write(name: string, rows: number, offset: number): Promise<string> {
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const data = Array.from({ length: rows }, (_, i) => prompt(i + offset));
    const file = path.join(dir, name);
    writeFileSync(file, Buffer.from(parquetWriteBuffer({ columnData: [{ name: 'prompt', data, type: 'STRING' }], rowGroupSize: 150 })));
    return file;
  }

  async function validate(name: string, decoder: 'worker' | 'here', options: Partial<ValidateOptions> = {}): Promise<DatasetReport> {
    const file = await parquetFile(name);
    try {
      const parquetDecoder =
        decoder === 'worker' ? offThreadParquet() : (bytes: ParquetBytes, columns: 'checked' | 'all') => decodeParquet(bytes, columns);
      return await validateParquet(file, { format: 'parquet', role: 'training', maxFindings: Infinity, ...options, parquetDecoder });
    } finally {
      await file.close();
    }
  }

  /** All a report holds that a caller reads: findings with their places and related lines, counts, keys and overlaps. */
  const whole = (r: DatasetReport) => ({
    rows: r.rows,
    counts: r.counts,
    findings: r.findings,
    omitted: r.omitted,
    ids: [...r.ids],
    prompts: [...r.prompts],
    answers: [...r.answers],
    taskAnswers: [...r.taskAnswers],
    overlaps: r.overlaps,
    sizes: [r.keyTables.ids.size, r.keyTables.answers.size, r.keyTables.prompts.size],
  });

  it('gives the one-thread report on a file of many row groups, with every finding in row order', async () => {
    const file = await write('training-data.parquet', 1_500, 0);
    for (const options of [{}, { maxPerCode: 3 }, { convention: 'wordle' as const }, { convention: 'none' as const }]) {
      const worker = await validate(file, 'worker', options);
      const here = await validate(file, 'here', options);
      assert.equal(worker.rows, 1_500);
      assert.ok(worker.findings.length > 20, `${worker.findings.length} findings`);
      assert.deepEqual(whole(worker), whole(here), JSON.stringify(options));
    }
  });

  it('finds the same overlaps against a training file, whose keys it compares by text', async () => {
    const training = await validate(await write('train.parquet', 600, 0), 'here', { trackKeys: true });
    const validation = await write('validation-data.parquet', 600, 400);
    const against = { role: 'validation' as const, against: training.keyTables, trackKeys: true };
    const worker = await validate(validation, 'worker', against);
    const here = await validate(validation, 'here', against);
    assert.ok(worker.overlaps.length > 0);
    assert.deepEqual(whole(worker), whole(here));
  });

  it('records keys that are not ASCII and a missing prompt column as they were given', () => {
    const recorder = new OutcomeRecorder();
    recorder.lookup('id', 'tâche-1', new ParquetRow(4), 'prompt');
    recorder.lookup('answer', 'crane', new ParquetRow(5), 'prompt');
    recorder.promptMissing('question', new ParquetRow(6));
    recorder.report('bad-answer', 'The answer is wrong.', new ParquetRow(7).span, 7);
    const seen: string[] = [];
    const target: HashedOutcomes = {
      report: (code, message, span, row) => seen.push(`${row} ${code} ${message} ${span.start.line}`),
      lookupHashed: (kind, _a, _b, keys, at, place, column) => seen.push(`${place.row} ${kind} ${keys.key(at)} ${column}`),
      promptMissing: (column, place) => seen.push(`${place.row} missing ${column}`),
    };
    replayOutcomes(recorder.take(), target);
    assert.deepEqual(seen, ['4 id tâche-1 prompt', '5 answer crane prompt', '6 missing question', '7 bad-answer The answer is wrong. 7']);
    replayOutcomes(recorder.take(), target);
    assert.equal(seen.length, 4, 'a second take holds only what came after the first');
  });
});
