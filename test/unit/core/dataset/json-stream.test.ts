import { strict as assert } from 'node:assert';
import { validateDataset, validateText, type DatasetReport } from '../../../../src/core/dataset';
import { wordleRow, where } from './helpers';

async function* pieces(source: string | Uint8Array, size: number): AsyncGenerator<string | Uint8Array> {
  for (let i = 0; i < source.length; i += size) yield source.slice(i, i + size);
}

const options = { format: 'json' as const, role: 'training' as const, batchSize: 2 };

/** Everything a report says about positions and rows, for comparing two reads of the same file. */
const summary = (r: DatasetReport) => JSON.stringify({ rows: r.rows, findings: r.findings });
const syntaxErrors = (r: DatasetReport) => where(r).filter((w) => w.endsWith('json-syntax'));

// Rows with escapes, a surrogate pair, multi-byte UTF-8, CRLF, pretty-printed objects and findings of every kind.
const rows = [
  wordleRow('crane', 'w_0001'),
  JSON.stringify({ prompt: JSON.stringify({ prompt: 'Guess 😀 the "5-letter" word\n\té', answer: 'sl8te', id: 'w_0002' }) }, null, 2),
  JSON.stringify({ prompt: '{"prompt": "x", "answer": "crane", "id": "w_0001"', n: -12.5e3, ok: true, none: null }),
  JSON.stringify({ prompt: 'Guess the 5-letter word', answer: 'crane', id: 'w_0003' }),
  '42',
  JSON.stringify({ prompt: JSON.stringify({ prompt: 'Wordle: the answer is plumb \\u00e9', answer: 'plumb', id: 'w_0004' }) }),
];
const file = '\ufeff[\r\n  ' + rows.join(',\r\n  ') + '\r\n]\n';

describe('JSON array streaming', () => {
  it('gives the same findings in any split of strings or bytes as when read whole', async () => {
    const whole = await validateText(file, options);
    assert.ok(whole.findings.length >= 6, 'the fixture must produce findings to compare');
    assert.equal(whole.rows, rows.length);
    const bytes = new TextEncoder().encode(file);
    for (const size of [1, 2, 3, 5, 7, 16, 61]) {
      assert.equal(summary(await validateDataset(pieces(file, size), options)), summary(whole), `string pieces of ${size}`);
      assert.equal(summary(await validateDataset(pieces(bytes, size), options)), summary(whole), `byte pieces of ${size}`);
    }
  });

  it('reports a truncated array at the exact place in every split', async () => {
    const text = '[\n  {"prompt": "a"},\n  {"prompt": "b\\u00';
    for (const size of [1, 4, 1000]) {
      const report = await validateDataset(pieces(text, size), options);
      assert.deepEqual(syntaxErrors(report), ['3:16 json-syntax'], `pieces of ${size}`);
      assert.match(report.findings.find((f) => f.code === 'json-syntax')?.message ?? '', /\\u escape/);
    }
    const open = '[\n  {"prompt": "a"},\n  {"prompt": "b"}';
    for (const size of [1, 3, 1000]) {
      const report = await validateDataset(pieces(open, size), options);
      assert.deepEqual(syntaxErrors(report), ['3:18 json-syntax'], `pieces of ${size}`);
      assert.match(report.findings.find((f) => f.code === 'json-syntax')?.message ?? '', /']' is missing/);
    }
    assert.deepEqual(syntaxErrors(await validateDataset(pieces('[\n{"prompt": "abc', 2), options)), ['2:12 json-syntax']);
  });

  it('waits for the rest of a number or a word cut at a piece boundary', async () => {
    const text = '[{"prompt": "a b c", "n": 12345.678e10, "t": true, "f": false}, 1234567, null]';
    const whole = await validateText(text, options);
    assert.deepEqual(where(whole), ['1:65 not-object', '1:74 not-object', '1:1 small-dataset']);
    for (const size of [1, 2, 3, 4, 5])
      assert.equal(summary(await validateDataset(pieces(text, size), options)), summary(whole), `pieces of ${size}`);
  });

  it('keeps positions absolute after many rows and lines have been dropped', async () => {
    const many = Array.from({ length: 500 }, (_, i) => wordleRow('crane', `w_${i}`));
    many[400] = JSON.stringify({ prompt: 'Guess', answer: 'crane', id: 'flat' });
    const text = '[\n' + many.join(',\n') + '\n]';
    const streamed = await validateDataset(pieces(text, 100), { ...options, maxFindings: 5000 });
    const flat = streamed.findings.find((f) => f.code === 'flat-row');
    assert.deepEqual(flat?.span.start, { line: 402, column: 1 });
    assert.equal(summary(streamed), summary(await validateText(text, { ...options, maxFindings: 5000 })));
  });
});
