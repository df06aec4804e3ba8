import { caselessIncludes } from '../../text/caseless';
import type { PackDatasetChecks } from '../types';

const ANSWER = /^[a-z]{5}$/;
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
    if (ANSWER.test(answer)) return undefined;
    const key = answer.trim().toLowerCase();
    const hint = ANSWER.test(key) ? ` Normalize it to '${key}'.` : '';
    return `The answer '${answer}' is not 5 letters a–z: the Wordle agent rejects it.${hint}`;
  },
  answerIsTheTask: true,
};
