import { strict as assert } from 'node:assert';
import { check, jsonl, wordleRow } from './helpers';

// Repeats are looked up in batches (src/core/dataset/repeats.ts): their findings must still come in row order, across
// batch boundaries, beside findings reported at once, and for the last rows of the file.
describe('dataset repeats looked up in batches', () => {
  const word = (i: number) => 'zz' + [676, 26, 1].map((d) => String.fromCharCode(97 + (Math.floor(i / d) % 26))).join('');

  it('reports each repeat in row order with its first line, beside findings of other codes, to the last row', async () => {
    const ids = (i: number) => ({ 150: 'w10', 260: 'w1', 400: 'w2' })[i] ?? `w${i}`;
    const rows = Array.from({ length: 400 }, (_, k) => wordleRow(k + 1 === 151 ? 'abc' : word(k + 1), ids(k + 1)));
    const r = await check(jsonl(rows));
    assert.deepEqual(
      r.findings.map((f) => `${f.row} ${f.code} ${f.related?.[0].span.start.line ?? ''}`),
      ['150 duplicate-id 10', '151 bad-answer ', '260 duplicate-id 1', '400 duplicate-id 2'],
    );
    assert.equal(r.rows, 400);
    assert.equal(r.ids.size, 397);
    assert.equal(r.keyTables.ids.size, 397);
  });

  it('finds a repeat of a row in the same batch and of the row before the file ends', async () => {
    const r = await check(jsonl([wordleRow('crane', 'a'), wordleRow('crane', 'b'), wordleRow('slate', 'b')]));
    assert.deepEqual(
      r.findings.map((f) => `${f.row} ${f.code}`),
      ['2 duplicate-answer', '3 duplicate-id'],
    );
  });
});
