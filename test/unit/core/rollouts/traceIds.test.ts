import { strict as assert } from 'node:assert';
import { RolloutIds, SeenIds } from '../../../../src/core/rollouts/traceIds';

const rest = (n: number) => `tr-${n.toString(16).padStart(32, '0')}`;
// Words that are all zeros, all ones and mixed, and ids that only look like the REST form.
const REST = ['tr-00000000000000000000000000000000', 'tr-ffffffffffffffffffffffffffffffff', 'tr-0123456789abcdef0123456789abcdef'];
const OTHERS = [
  'tr-0123456789ABCDEF0123456789ABCDEF',
  'tr-0123456789abcdef0123456789abcde',
  'tr-0123456789abcdef0123456789abcdeg',
  'rollout-7',
  '',
];

describe('rollout ids held as words', () => {
  it('gives back every id as it was pushed, in the REST trace form or any other', () => {
    const ids = new RolloutIds();
    const pushed = [...REST, ...OTHERS];
    // Past the first 1,024 rows, so the words grow.
    for (let n = 0; n < 3000; n++) pushed.push(n % 3 ? rest(n * 7919) : `row-${n}`);
    for (const id of pushed) ids.push(id);
    assert.equal(ids.length, pushed.length);
    pushed.forEach((id, row) => assert.equal(ids.at(row), id));
    // Only REST ids: none kept as text.
    const rest3 = new RolloutIds();
    for (const id of REST) rest3.push(id);
    assert.deepEqual(
      [0, 1, 2].map((row) => rest3.at(row)),
      REST,
    );
  });

  it('tells an id seen before, in either form, across the table growing', () => {
    const seen = new SeenIds();
    const ids = [...REST, ...OTHERS];
    for (let n = 1; n <= 5000; n++) ids.push(rest(n));
    for (const id of ids) assert.equal(seen.add(id), true, id);
    for (const id of ids) assert.equal(seen.add(id), false, id);
    // Ids that differ in one word only are told apart (the table compares all four).
    assert.equal(seen.add('tr-00000001000000000000000000000000'), true);
    assert.equal(seen.add('tr-00000000000000000000000100000000'), true);
    // The same digits in capitals are another id, as the reader wrote it.
    assert.equal(seen.add('TR-00000000000000000000000000000000'), true);
  });
});
