import { strict as assert } from 'node:assert';
import { KeyTable } from '../../../../src/core/dataset/key-table';
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

  it('tells long keys apart by every character, one past U+00FF from its low byte too', () => {
    const table = new KeyTable();
    const long = 'Customer 7 asks how to reset the password of account A-55433.';
    const keys = [long, long.replace('7', '8'), `${long} `, `${long}\u0141`, `${long}A`, `${long}\u00e9`, 'x'.repeat(32), 'x'.repeat(33)];
    keys.forEach((key, i) => assert.equal(table.firstOrAdd(key, i + 1), undefined, key));
    keys.forEach((key, i) => assert.equal(table.firstOrAdd(key, 100 + i), i + 1, key));
    assert.equal(table.get(`${long}\u0141`), 4);
  });

  it("looks up answers that are not the task only when a pair's shared answers are counted", async () => {
    const math = jsonl(
      Array.from({ length: 50 }, (_, i) =>
        JSON.stringify({ prompt: JSON.stringify({ prompt: `Compute ${i} % 7.`, answer: String(i % 7), id: `m-${i}` }) }),
      ),
    );
    const alone = await check(math, { trackKeys: false });
    assert.deepEqual([alone.rows, alone.findings.length, alone.keyTables.answers.size], [50, 0, 0]);
    const compared = await check(math, { trackKeys: false, compared: true });
    assert.deepEqual([compared.rows, compared.findings.length, compared.keyTables.answers.size], [50, 0, 7]);
    assert.equal((await check(math)).answers.size, 7);
  });
});
