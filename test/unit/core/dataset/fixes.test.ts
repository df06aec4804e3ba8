import { strict as assert } from 'node:assert';
import { fixEdits, KeyTable, serializePrompt, wrapFlatRow, type TextEdit } from '../../../../src/core/dataset';
import { check, codes, jsonl, wordleRow } from './helpers';

function apply(text: string, edits: TextEdit[]): string {
  return [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.text + t.slice(e.end), text);
}

describe('dataset quick fixes (text edits)', () => {
  it('wraps a flat row into the exact form of the real files', () => {
    const flat = '{"prompt": "Guess the 5-letter word", "answer": "carat", "id": "wordle_train_0000"}';
    assert.equal(
      wrapFlatRow(flat),
      '{"prompt": "{\\"prompt\\": \\"Guess the 5-letter word\\", \\"answer\\": \\"carat\\", \\"id\\": \\"wordle_train_0000\\"}"}',
    );
    assert.equal(wrapFlatRow(wordleRow('crane', 'a')), undefined);
  });

  it('wrap this row / all rows: the flat-row errors are gone afterwards, CRLF kept', async () => {
    const text =
      [
        '{"prompt": "Guess the 5-letter word", "answer": "crane", "id": "a"}',
        wordleRow('slate', 'b'),
        '{"prompt": "Guess the 5-letter word", "answer": "pasta", "id": "c"}',
      ].join('\r\n') + '\r\n';
    assert.deepEqual(codes(await check(text)), ['flat-row', 'flat-row']);
    const one = apply(text, fixEdits(text, 'jsonl', 'wrap', { stem: 'train', only: [0, text.indexOf('\r')] }));
    assert.deepEqual(codes(await check(one)), ['flat-row']);
    const all = apply(text, fixEdits(text, 'jsonl', 'wrap', { stem: 'train' }));
    assert.deepEqual(codes(await check(all)), []);
    assert.equal(all.split('\r\n').length, 4);
  });

  it('adds missing ids as <stem>_%04d, skipping ids already used', async () => {
    const row = (answer: string) => JSON.stringify({ prompt: JSON.stringify({ prompt: 'Guess the 5-letter word', answer }) });
    const text = jsonl([row('crane'), wordleRow('slate', 'train_0000'), row('pasta')]);
    const fixed = apply(text, fixEdits(text, 'jsonl', 'ids', { stem: 'train' }));
    assert.deepEqual(codes(await check(fixed)), []);
    assert.match(fixed, /train_0000_2/);
    assert.match(fixed, /train_0002/);
  });

  it('removes exact duplicate rows and normalizes answers', async () => {
    const text = jsonl([wordleRow('crane', 'a'), wordleRow('slate', 'b'), wordleRow('crane', 'a'), wordleRow(' Pasta', 'c')]);
    assert.deepEqual(codes(await check(text)), ['duplicate-answer', 'duplicate-id', 'bad-answer']);
    const deduped = apply(text, fixEdits(text, 'jsonl', 'duplicates', { stem: 'x' }));
    assert.equal(deduped.split('\n').length, 4);
    const fixed = apply(deduped, fixEdits(deduped, 'jsonl', 'answers', { stem: 'x' }));
    assert.deepEqual(codes(await check(fixed)), []);
  });

  it('serializes a prompt kept as an object or a list of messages, in the style of the row; leaves null and numbers', async () => {
    assert.equal(
      serializePrompt('{"prompt": {"prompt": "What is 2 + 2?", "answer": "4", "id": "m_0"}, "note": 1}'),
      '{"prompt": "{\\"prompt\\": \\"What is 2 + 2?\\", \\"answer\\": \\"4\\", \\"id\\": \\"m_0\\"}", "note": 1}',
    );
    assert.equal(
      serializePrompt('{"prompt":[{"role":"user","content":"Hi"}]}'),
      '{"prompt":"[{\\"role\\":\\"user\\",\\"content\\":\\"Hi\\"}]"}',
    );
    for (const row of ['{"prompt": null}', '{"prompt": 7}', '{"prompt": "text"}', 'not json', '{"prompt": {"0": "a", "1": "b"}}'])
      assert.equal(serializePrompt(row), undefined, row);
    const task = (id: string) => JSON.stringify({ prompt: { prompt: `What is ${id} + 1?`, answer: 'x', id } });
    const text = jsonl([task('a'), wordleRow('slate', 'b'), '{"prompt": 7}', task('c')]);
    assert.deepEqual(codes(await check(text)), ['prompt-not-string', 'prompt-not-string', 'prompt-not-string']);
    const fixed = apply(text, fixEdits(text, 'jsonl', 'serialize', { stem: 'x' }));
    assert.deepEqual(codes(await check(fixed)), ['prompt-not-string']);
  });

  it('works on JSON array elements too', async () => {
    const text =
      '[\n  {"prompt": "Guess the 5-letter word", "answer": "crane", "id": "a"},\n  {"prompt": "Guess the 5-letter word", "answer": "slate", "id": "b"}\n]\n';
    const fixed = apply(text, fixEdits(text, 'json', 'wrap', { stem: 'x' }));
    assert.deepEqual(codes(await check(fixed, { format: 'json' })), []);
  });
});

describe('KeyTable', () => {
  it('remembers first lines, grows, and stops adding at its cap', () => {
    const table = new KeyTable(50_000);
    for (let i = 0; i < 60_000; i++) table.firstOrAdd(`id_${i}`, i + 1);
    assert.equal(table.size, 50_000);
    assert.equal(table.full, true);
    assert.equal(table.get('id_123'), 124);
    assert.equal(table.firstOrAdd('id_49999', 7), 50_000);
    assert.equal(table.get('id_55000'), undefined);
  });

  // An ordered table answers as a plain one whatever the order: ids that ascend, then break, then repeat.
  const orders: [string, string[]][] = [
    ['ascending, then a repeat of an early id', [...Array.from({ length: 5000 }, (_, i) => `task-${i + 1}`), 'task-7']],
    ['ascending, then older ids again and new ones', ['a', 'b', 'c', 'aa', 'ab', 'b', 'ac', 'c', 'zz', 'aa', 'ba']],
    ['a repeat right away', ['x1', 'x1', 'x2']],
    ['an empty key first', ['', 'a', '', 'b']],
    ['shuffled', Array.from({ length: 3000 }, (_, i) => `id${(i * 7919) % 2000}`)],
  ];
  for (const [name, keys] of orders)
    it(`an ordered table (ids) finds the same first lines as a plain one: ${name}`, () => {
      const plain = new KeyTable();
      const ordered = new KeyTable(undefined, true);
      keys.forEach((key, i) => assert.equal(ordered.firstOrAdd(key, i + 1), plain.firstOrAdd(key, i + 1), `${key} on line ${i + 1}`));
      assert.equal(ordered.size, plain.size);
      for (const key of new Set(keys)) assert.equal(ordered.get(key), plain.get(key), key);
    });

  it('an ordered table read while its keys still ascend (a training file’s ids) has every one, at its line', () => {
    const ordered = new KeyTable(undefined, true);
    ordered.reserve(20_000);
    for (let i = 0; i < 20_000; i++) assert.equal(ordered.firstOrAdd(`row_${String(i).padStart(6, '0')}`, i + 1), undefined);
    assert.equal(ordered.get('row_000000'), 1);
    assert.equal(ordered.get('row_019999'), 20_000);
    assert.equal(ordered.get('row_020000'), undefined);
    assert.equal(ordered.firstOrAdd('row_000042', 20_001), 43);
  });

  it('an ordered table stops adding at its cap while its keys ascend', () => {
    const ordered = new KeyTable(1000, true);
    for (let i = 0; i < 1500; i++) ordered.firstOrAdd(`t${i + 1000}`, i + 1);
    assert.equal(ordered.size, 1000);
    assert.equal(ordered.full, true);
    assert.equal(ordered.get('t1999'), 1000);
    assert.equal(ordered.get('t2000'), undefined);
  });
});
