import { strict as assert } from 'node:assert';
import { isValidWord, markGuess } from '../../../../../src/core/environments/wordle';

describe('wordle marks', () => {
  // [answer, guess, marks, what the case covers]
  const cases: [string, string, string, string][] = [
    ['crane', 'crane', 'GGGGG', 'exact solve'],
    ['crane', 'slate', 'XXGXG', 'greens only'],
    ['crane', 'nacre', 'YYYYG', 'all letters present, one in place'],
    ['crane', 'pudgy', 'XXXXX', 'nothing in common'],
    ['abbey', 'babes', 'YYGGX', 'reference example: duplicate B, one green one yellow'],
    ['crane', 'eerie', 'XXYXG', 'reference example: triple E, the green takes the only E'],
    ['abbey', 'kebab', 'XYGYY', 'two Bs in guess, two in answer, mixed green and yellow'],
    ['abbey', 'abbey', 'GGGGG', 'double letter solve'],
    ['abbey', 'bbbbb', 'XGGXX', 'five Bs, two greens, the rest gray'],
    ['speed', 'eeeee', 'XXGGX', 'five Es against two in place'],
    ['speed', 'erase', 'YXXYY', 'two Es both yellow, S yellow'],
    ['speed', 'steep', 'GXGGY', 'double E green, P yellow'],
    ['speed', 'deeps', 'YYGYY', 'anagram with a double'],
    ['allow', 'lolly', 'YYGXX', 'three Ls in guess, two in answer'],
    ['allow', 'llama', 'YGYXX', 'double L leading'],
    ['hello', 'level', 'YGXXY', 'two Es in guess, one in answer: the green takes it, the second E is gray'],
    ['hello', 'lolly', 'XYGGX', 'three Ls against two: both greens take them, the first L is gray'],
    ['geese', 'eerie', 'YGXXG', 'three Es in both, mixed'],
    ['geese', 'seems', 'YGGXX', 'surplus S gray after first'],
    ['mamma', 'maxim', 'GGXXY', 'triple M answer'],
    ['mamma', 'ammam', 'YYGYY', 'triple M, every letter misplaced but one'],
    ['added', 'daddy', 'YYGYX', 'triple D in both: one green, two yellow'],
    ['robot', 'motor', 'XGYGY', 'double O, one green one yellow'],
    ['stare', 'tests', 'YYYXX', 'second S and second T gray'],
    ['sassy', 'assay', 'YYGXG', 'triple S'],
    ['apple', 'paper', 'YYGYX', 'double P: one green, one yellow'],
    ['tryst', 'treat', 'GGXXG', 'double T both green'],
    ['crane', 'CRANE', 'GGGGG', 'upper-case guess'],
    ['CRANE', 'trace', 'XGGYG', 'upper-case answer'],
  ];
  for (const [answer, guess, marks, why] of cases) {
    it(`${answer} / ${guess} → ${marks} (${why})`, () => {
      assert.equal(markGuess(guess, answer), marks);
    });
  }

  it('refuses words that are not five letters', () => {
    assert.throws(() => markGuess('xx', 'crane'), /5-letter/);
    assert.throws(() => markGuess('crane', 'cranes'), /5-letter/);
  });

  const validity: [unknown, boolean][] = [
    ['crane', true],
    ['CRANE', true],
    ['CrAnE', true],
    ['cran', false],
    ['cranes', false],
    ['cr4ne', false],
    ['crâne', false],
    [' crane', false],
    ['', false],
    [12345, false],
    [null, false],
  ];
  for (const [word, ok] of validity) {
    it(`answer validity: ${JSON.stringify(word)} → ${ok}`, () => assert.equal(isValidWord(word), ok));
  }
});
