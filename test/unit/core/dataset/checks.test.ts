import { strict as assert } from 'node:assert';
import { check, codes, jsonl, where, wordleRow } from './helpers';

describe('dataset checks, one per code', () => {
  it('json-syntax: exact line and column of the first bad character', async () => {
    const r = await check(jsonl([wordleRow('crane', 'a'), '{"prompt": "x",}', wordleRow('slate', 'b')]));
    assert.deepEqual(where(r), ['2:16 json-syntax']);
    assert.equal(r.findings[0].severity, 'error');
    assert.match(r.findings[0].message, /property name/);
  });

  it('not-object: a row that is an array, a number or null', async () => {
    const r = await check(jsonl(['[1, 2]', '42', 'null']));
    assert.deepEqual(codes(r), ['not-object', 'not-object', 'not-object']);
  });

  it('missing-prompt: warns once and names the column the service uses instead', async () => {
    const r = await check(jsonl(['{"question": "a b c"}', '{"question": "d e f"}']));
    assert.deepEqual(where(r), ['1:1 missing-prompt']);
    assert.equal(r.findings[0].severity, 'warning');
    assert.match(r.findings[0].message, /`question`/);
    assert.match(r.findings[0].message, /2 rows/);
  });

  it('prompt-not-string: an object or number prompt, pointing at the value', async () => {
    const r = await check(jsonl(['{"prompt": {"answer": "crane"}}', '{"prompt": 7}']));
    assert.deepEqual(where(r), ['1:12 prompt-not-string', '2:12 prompt-not-string']);
    assert.match(r.findings[0].message, /Store it as a JSON string: in pandas `df\["prompt"\] = df\["prompt"\]\.map\(json\.dumps\)`/);
    assert.match(r.findings[1].message, /is an integer; .*Store the column as text\.$/);
  });

  it("nan-value: NaN or Infinity as Python's json writes them, in a line, a JSON array or the task, is read with a warning", async () => {
    const task = (id: string, score: string) =>
      `{\\"prompt\\": \\"What is 1 + 1?\\", \\"answer\\": \\"2\\", \\"id\\": \\"${id}\\", \\"score\\": ${score}}`;
    const r = await check(
      jsonl([
        `{"prompt": "${task('a', 'NaN')}", "weight": 1}`,
        `{"prompt": "${task('b', '0')}", "weight": -Infinity}`,
        `{"prompt": "${task('b', '1')}"}`,
      ]),
    );
    assert.deepEqual(where(r), ['1:91 nan-value', '2:106 nan-value', '3:12 duplicate-id']);
    assert.equal(r.rows, 3);
    assert.match(r.findings[0].message, /^The prompt string holds `NaN`, .*Python's `json.loads` gets a float/);
    assert.match(r.findings[1].message, /^The line holds `-Infinity`, .*Python's readers \(json, pandas, pyarrow\) read it back/);
    const array = await check(`[\n  {"prompt": "${task('a', '1')}", "weight": NaN},\n  {"prompt": "${task('b', '1')}"}\n]\n`, {
      format: 'json',
    });
    assert.deepEqual(where(array), ['2:108 nan-value']);
    assert.equal(array.rows, 2);
  });

  it('json-syntax: a line with NaN and a real error is placed at the error, not at the NaN', async () => {
    const r = await check(jsonl(['{"prompt": "hi", "weight": NaN, "x": tru}']));
    assert.deepEqual(where(r), ['1:38 json-syntax']);
  });

  it('empty-prompt: empty or whitespace prompts, and rows with no columns', async () => {
    const r = await check(jsonl(['{"prompt": ""}', '{"prompt": "  \\t "}', '{}']));
    assert.deepEqual(codes(r), ['empty-prompt', 'empty-prompt', 'empty-prompt']);
  });

  it('flat-row: answer and id beside the prompt', async () => {
    const r = await check(
      jsonl(['{"prompt": "Guess the 5-letter word", "answer": "riser", "id": "w_1"}', '{"prompt": "Guess", "id": "w_2"}']),
    );
    assert.deepEqual(codes(r), ['flat-row', 'flat-row']);
    assert.match(r.findings[0].message, /`answer` and `id` sit beside/);
    assert.match(r.findings[1].message, /`id` sits beside/);
  });

  it('inner-json-syntax: the position inside the prompt string is mapped back into the line', async () => {
    const line = '{"prompt": "{\\"prompt\\": \\"x\\" \\"answer\\": \\"crane\\"}"}';
    const r = await check(jsonl([line]));
    assert.deepEqual(codes(r), ['inner-json-syntax']);
    // The inner text is {"prompt": "x" "answer"...}; the error is at its second-key quote, written \" in the line.
    const column = r.findings[0].span.start.column;
    assert.equal(line.slice(column - 1, column + 1), '\\"');
    assert.equal(line.slice(column - 1, column + 9), '\\"answer\\"');
    assert.equal(line.slice(column - 5, column - 1), 'x\\" ');
  });

  it('missing-answer and missing-id under the task convention', async () => {
    const r = await check(
      jsonl([
        JSON.stringify({ prompt: JSON.stringify({ prompt: 'Guess', id: 'a' }) }),
        JSON.stringify({ prompt: JSON.stringify({ prompt: 'Guess', answer: 'crane' }) }),
      ]),
    );
    assert.deepEqual(codes(r), ['missing-answer', 'missing-id']);
  });

  it('bad-answer: not 5 letters a–z, with the normalized form when one exists', async () => {
    const r = await check(jsonl([wordleRow('Crane', 'a'), wordleRow('cranes', 'b'), wordleRow('cr4ne', 'c')]));
    assert.deepEqual(codes(r), ['bad-answer', 'bad-answer', 'bad-answer']);
    assert.match(r.findings[0].message, /Normalize it to 'crane'/);
    assert.doesNotMatch(r.findings[1].message, /Normalize/);
  });

  it('bad-answer only applies to Wordle rows under auto, always under wordle', async () => {
    const task = JSON.stringify({ prompt: JSON.stringify({ prompt: 'Sum the numbers', answer: '42', id: 't1' }) });
    assert.deepEqual(codes(await check(jsonl([task]))), []);
    assert.deepEqual(codes(await check(jsonl([task]), { convention: 'wordle' })), ['bad-answer']);
  });

  it('duplicate-id: related information points at the first occurrence', async () => {
    const r = await check(jsonl([wordleRow('crane', 'w1'), wordleRow('slate', 'w2'), wordleRow('pasta', 'w1')]));
    assert.deepEqual(codes(r), ['duplicate-id']);
    assert.equal(r.findings[0].span.start.line, 3);
    assert.equal(r.findings[0].related?.[0].span.start.line, 1);
  });

  it('duplicate-answer: a warning, comparing trimmed lowercase answers', async () => {
    const r = await check(jsonl([wordleRow('crane', 'w1'), wordleRow('crane', 'w2')]));
    assert.deepEqual(codes(r), ['duplicate-answer']);
    assert.equal(r.findings[0].severity, 'warning');
  });

  it('answer-leak: the answer as a word in the text shown to the model, not as part of a word', async () => {
    const r = await check(
      jsonl([wordleRow('crane', 'w1', 'Guess the 5-letter word. Hint: CRANE'), wordleRow('rane', 'w2', 'Guess the 5-letter word cranes')]),
    );
    assert.deepEqual(
      codes(r).filter((c) => c === 'answer-leak'),
      ['answer-leak'],
    );
    assert.equal(r.findings.find((f) => f.code === 'answer-leak')?.span.start.line, 1);
  });

  it("duplicate-answer is Wordle's: a math task sharing answers gets none; any task gets duplicate-prompt for the same prompt twice", async () => {
    const math = (q: string, a: string, id: string) => JSON.stringify({ prompt: JSON.stringify({ prompt: q, answer: a, id }) });
    const rows = jsonl([math('What is 2+2?', '4', 'm1'), math('What is 3+1?', '4', 'm2'), math('What is 2+2?', '4', 'm1')]);
    const r = await check(rows);
    assert.deepEqual(codes(r), ['duplicate-prompt', 'duplicate-id']);
    assert.equal(r.findings[0].row, 3);
    assert.match(r.findings[0].message, /already on line 1/);
    const support = jsonl(['{"prompt": "My router is down."}', '{"prompt": "No Wi-Fi."}', '{"prompt": "My router is down."}']);
    assert.deepEqual(codes(await check(support, { convention: 'none' })), ['duplicate-prompt']);
  });

  it('too-few-rows: training files not above global_batch_size; validation files exempt', async () => {
    const rows = jsonl([wordleRow('crane', 'a'), wordleRow('slate', 'b')]);
    assert.deepEqual(codes(await check(rows, { role: 'training', batchSize: 32 })), ['too-few-rows']);
    const atBoundary = await check(rows, { role: 'training', batchSize: 2, batchSizeSource: 'train.mtrl.json' });
    assert.deepEqual(codes(atBoundary), ['too-few-rows']);
    assert.match(
      atBoundary.findings[0].message,
      /"Training data has 2 prompts but global_batch_size is 2\. The number of prompts must be greater than the batch size\."/,
    );
    assert.match(atBoundary.findings[0].message, /2 from train\.mtrl\.json/);
    assert.deepEqual(codes(await check(rows, { role: 'training', batchSize: 1 })), ['small-dataset']);
    assert.deepEqual(codes(await check(rows, { role: 'validation', batchSize: 32 })), []);
    assert.deepEqual(codes(await check(rows, { batchSize: 32 })), []);
  });

  it('small-dataset: info below 10 × global_batch_size; summary counts steps per epoch', async () => {
    const words = ['crane', 'slate', 'pasta', 'riser', 'valet'];
    const r = await check(jsonl(words.map((w, i) => wordleRow(w, `w${i}`))), { role: 'training', batchSize: 2 });
    assert.deepEqual(codes(r), ['small-dataset']);
    assert.equal(r.findings[0].severity, 'info');
    assert.equal(r.rows, 5);
    assert.equal(r.stepsPerEpoch, 2);
  });

  it('convention none skips inner checks; task flags plain-text prompts', async () => {
    const rows = jsonl(['{"prompt": "What is 2+2?"}', '{"prompt": "{broken"}']);
    assert.deepEqual(codes(await check(rows, { convention: 'none' })), []);
    assert.deepEqual(codes(await check(rows, { convention: 'task' })), ['inner-json-syntax', 'inner-json-syntax']);
    assert.deepEqual(codes(await check(rows)), ['inner-json-syntax']);
  });

  it('keeps at most maxFindings and counts the rest', async () => {
    const r = await check(jsonl(Array.from({ length: 30 }, () => '[]')), { maxFindings: 10 });
    assert.equal(r.findings.length, 10);
    assert.equal(r.omitted.error, 20);
  });
});
