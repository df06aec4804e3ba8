import { strict as assert } from 'node:assert';
import { toColumns } from '../../../../src/core/dataset/parquetBatch';
import { BatchRows, transferables } from '../../../../src/services/parquet/batch';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** What crosses threads: a structured clone, its buffers moved. */
function crossed<T>(value: T, transfer: ArrayBuffer[]): T {
  return structuredClone(value, { transfer });
}

describe('Parquet batches cross threads as columns', () => {
  it('gives back the same rows, keys in the same order, for text as bytes (ASCII or not), numbers and missing values', () => {
    const texts = ['{"prompt": "a", "answer": "crane"}', 'héllo wörld', '🙂 emoji', '\uFEFFwith a byte order mark', '', 'plain'];
    const rows = texts.map((t, i) => ({ prompt: utf8(t), id: i % 2 ? undefined : utf8(`id-${i}`), n: i }));
    const batch = toColumns(10, 1000, rows);
    const back = new BatchRows(crossed(batch, transferables(batch))).rows();
    const decoder = new TextDecoder();
    assert.deepEqual(
      back,
      rows.map((r) => ({ prompt: decoder.decode(r.prompt), id: r.id && decoder.decode(r.id), n: r.n })),
    );
    assert.deepEqual(Object.keys(back[0]), ['prompt', 'id', 'n']);
    // A byte order mark leading a value is dropped, as hyparquet's own decoding drops it.
    assert.equal(back[3].prompt, 'with a byte order mark');
  });

  it('slices all-ASCII text from one decoding, and picks rows from-to', () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ prompt: utf8(`row ${i}`) }));
    const batch = toColumns(0, 20, rows);
    assert.ok(!Array.isArray(batch.columns[0]), 'a text column is packed');
    const picked = new BatchRows(crossed(batch, transferables(batch))).rows(5, 8);
    assert.deepEqual(picked, [{ prompt: 'row 5' }, { prompt: 'row 6' }, { prompt: 'row 7' }]);
  });

  it('moves the text buffers instead of copying them', () => {
    const batch = toColumns(0, 2, [{ prompt: utf8('a') }, { prompt: utf8('b') }]);
    const buffers = transferables(batch);
    assert.equal(buffers.length, 2);
    crossed(batch, buffers);
    assert.equal(buffers[0].byteLength, 0, 'detached: moved, not copied');
  });

  it('a batch of no rows has no columns', () => {
    assert.deepEqual(new BatchRows(toColumns(0, 0, [])).rows(), []);
  });
});
