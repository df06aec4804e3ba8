import assert from 'node:assert/strict';
import { caselessIncludes } from '../../../../src/core/text/caseless';

describe('caselessIncludes', () => {
  it('answers as `/needle/i` does, on texts built from the needles in mixed case and look-alike letters', () => {
    const needles = ['wordle', '5-letter', 'five-letter', 'x'];
    // Pieces that a case-folding regex treats apart: Kelvin sign, long s, dotless and dotted I are no ASCII letters.
    const pieces = [
      'WoRdLe',
      'wordl',
      'ORDLE',
      '5-LETTER',
      '5-lett',
      'Five-Letter',
      'fIVE-',
      'letter',
      'ı',
      'İ',
      'ſ',
      'K',
      'X',
      ' ',
      '-',
      '5',
    ];
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    for (let t = 0; t < 3000; t++) {
      let text = '';
      for (let k = next(8); k > 0; k--) text += pieces[next(pieces.length)];
      for (const needle of needles)
        assert.equal(caselessIncludes(needle)(text), new RegExp(needle, 'i').test(text), `${needle} in ${JSON.stringify(text)}`);
    }
  });

  it('finds a needle at the very end and not past it', () => {
    assert.equal(caselessIncludes('wordle')('play WORDLE'), true);
    assert.equal(caselessIncludes('wordle')('play WORDL'), false);
    assert.equal(caselessIncludes('wordle')(''), false);
  });

  it('refuses a needle with upper-case or non-ASCII letters, which it could not fold', () => {
    assert.throws(() => caselessIncludes('Wordle'), /lower-case ASCII/);
    assert.throws(() => caselessIncludes('été'), /lower-case ASCII/);
    assert.throws(() => caselessIncludes(''), /lower-case ASCII/);
  });
});
