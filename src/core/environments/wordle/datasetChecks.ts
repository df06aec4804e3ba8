import { caselessIncludes } from '../../text/caseless';
import type { PackDatasetChecks } from '../types';

/** `/^[a-z]{5}$/` without a regex: it runs on every row's answer. */
function isFiveLetters(answer: string): boolean {
  if (answer.length !== 5) return false;
  for (let i = 0; i < 5; i++) {
    const c = answer.charCodeAt(i);
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}
// `/wordle|5-letter|five-letter/i` by `indexOf` scans: it runs on every row's prompt.
const mentionsWordle = caselessIncludes('wordle');
const mentionsFiveLetters = caselessIncludes('5-letter');
const mentionsFiveLettersInWords = caselessIncludes('five-letter');

/** Wordle's rows: one prompt text, a five-letter answer each, every answer once (a repeat doubles that word's weight). */
export const wordleDatasetChecks: PackDatasetChecks = {
  convention: 'wordle',
  promptLooksLike: (prompt) => mentionsWordle(prompt) || mentionsFiveLetters(prompt) || mentionsFiveLettersInWords(prompt),
  idLooksLike: mentionsWordle,
  answerProblem(answer) {
    if (isFiveLetters(answer)) return undefined;
    const key = answer.trim().toLowerCase();
    const hint = isFiveLetters(key) ? ` Normalize it to '${key}'.` : '';
    return `The answer '${answer}' is not 5 letters a–z: the Wordle agent rejects it.${hint}`;
  },
  answerIsTheTask: true,
};
