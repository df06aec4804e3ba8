import { strict as assert } from 'node:assert';
import { LineSplitter } from '../../../../src/core/text/lines';

function split(pieces: string[], maxChars = 10): string[] {
  const out: string[] = [];
  const splitter = new LineSplitter(
    (t) => out.push(t),
    (n) => out.push(`<${n} chars skipped>`),
    maxChars,
  );
  for (const p of pieces) splitter.push(p);
  splitter.end();
  return out;
}

describe('LineSplitter', () => {
  const text = 'one\ntwo\r\n\nthree is long enough\nfour';

  it('gives the same lines in any split of the input', () => {
    const whole = split([text]);
    assert.deepEqual(whole, ['one', 'two\r', '', '<20 chars skipped>', 'four']);
    for (let size = 1; size <= text.length; size++) {
      const pieces: string[] = [];
      for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
      assert.deepEqual(split(pieces), whole, `pieces of ${size}`);
    }
  });

  it('a line exactly at the cap is kept; one past it is skipped with its length', () => {
    assert.deepEqual(split(['0123456789\n01234567890\n']), ['0123456789', '<11 chars skipped>']);
    assert.deepEqual(split(['01234', '56789', '0', '\nx']), ['<11 chars skipped>', 'x']);
  });

  it('an empty input gives no line, and a final newline no empty last line', () => {
    assert.deepEqual(split([]), []);
    assert.deepEqual(split(['a\n']), ['a']);
  });
});
