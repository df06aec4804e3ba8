import { strict as assert } from 'node:assert';
import { validateDataset, type KeyTable } from '../../../../src/core/dataset';
import { RowEstimate } from '../../../../src/core/dataset/rowEstimate';
import { jsonl } from './helpers';

/** Slots a first-seen table holds: what sizing it ahead changes. */
const slotsOf = (table: KeyTable) => (table as unknown as { capacity: number }).capacity;

async function* pieces(...texts: string[]): AsyncGenerator<Uint8Array> {
  for (const text of texts) yield new TextEncoder().encode(text);
}

describe('a JSON Lines file sized from its first lines', () => {
  it('guesses rows from the bytes per line of the first whole lines, once', () => {
    const estimate = new RowEstimate(3_000);
    assert.equal(estimate.add('{"a":1234}\n'.repeat(3), 3), true);
    assert.equal(estimate.rows, Math.ceil((3_000 * 3) / 33));
    assert.equal(estimate.add('{"a":1}\n', 4), false, 'a second guess');
  });

  it('waits for a whole line, and counts bytes, not characters', () => {
    const estimate = new RowEstimate(9_000);
    assert.equal(estimate.add('{"p":"ééé', 0), false);
    assert.equal(estimate.add('"}\n', 1), true);
    assert.equal(estimate.rows, 9_000 / 15, '{"p":"ééé"}\\n is 15 bytes of UTF-8 and 12 characters');
  });

  it('sizes the tables ahead from the file size, and finds the same as a check that grows them', async () => {
    const rows = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({ id: `t${i % 290}`, prompt: `Compute ${i} + 1.`, answer: String(i % 7) }),
    );
    const text = jsonl(rows);
    const options = { format: 'jsonl' as const, role: 'training' as const };
    const grown = await validateDataset(pieces(text.slice(0, 500), text.slice(500)), options);
    const sized = await validateDataset(pieces(text.slice(0, 500), text.slice(500)), { ...options, byteSize: 100 * text.length });
    assert.deepEqual(sized.findings, grown.findings);
    assert.deepEqual(sized.counts, grown.counts);
    assert.equal(sized.rows, 300);
    assert.equal(grown.findings.filter((f) => f.code === 'duplicate-id').length, 10, 'the check still finds repeats');
    assert.equal(slotsOf(grown.keyTables.ids), 1024);
    assert.ok(slotsOf(sized.keyTables.ids) >= (100 * 300 * 4) / 3, `sized ${slotsOf(sized.keyTables.ids)} slots`);
  });
});
