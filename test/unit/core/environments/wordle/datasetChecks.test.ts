import assert from 'node:assert/strict';
import { wordleDatasetChecks } from '../../../../../src/core/environments/wordle/datasetChecks';

// The checks run on every row without regexes; they must answer as the rules' regexes do.
describe("Wordle's dataset checks", () => {
  const texts = ['crane', 'CRANE', ' crane', 'crane\n', 'cranes', 'cran', 'cr4ne', 'crané', '', 'zzzzz', 'aaaa{', '`aaaa'];
  const prompts = [
    'Play Wordle',
    'a FIVE-LETTER word',
    'guess the 5-Letter word',
    '5 letters',
    'wordl',
    'five letter',
    '{"id":"WORDLE_1"}',
    // Lower-cased by toLowerCase, as a regex's /i folds them: the dotted İ, the Kelvin sign, a non-breaking hyphen, full width.
    'PLAY WORDLE İN 6',
    'FİVE-LETTER',
    'a \u212Aind of 5-LETTER word',
    'five\u2011letter',
    '\uff37\uff2f\uff32\uff24\uff2c\uff25',
  ];

  it('takes an answer as /^[a-z]{5}$/ does, and names the normalized form when only case or spaces are wrong', () => {
    for (const answer of texts) {
      const problem = wordleDatasetChecks.answerProblem(answer);
      assert.equal(problem === undefined, /^[a-z]{5}$/.test(answer), answer);
      if (problem) assert.equal(problem.includes('Normalize it to'), /^[a-z]{5}$/.test(answer.trim().toLowerCase()), answer);
    }
  });

  it('tells a Wordle prompt and id as /wordle|5-letter|five-letter/i and /wordle/i do', () => {
    for (const text of [...prompts, ...texts]) {
      assert.equal(wordleDatasetChecks.promptLooksLike(text.toLowerCase()), /wordle|5-letter|five-letter/i.test(text), text);
      assert.equal(wordleDatasetChecks.idLooksLike(text), /wordle/i.test(text), text);
    }
  });
});
