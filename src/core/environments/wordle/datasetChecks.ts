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
// `/wordle/i` by `indexOf` scans: it runs on the id of every row whose prompt names no pack.
const mentionsWordle = caselessIncludes('wordle');

/** Wordle's rows: one prompt text, a five-letter answer each, every answer once (a repeat doubles that word's weight). */
export const wordleDatasetChecks: PackDatasetChecks = {
  convention: 'wordle',
  promptLooksLike: (lower) => lower.includes('wordle') || lower.includes('5-letter') || lower.includes('five-letter'),
  idLooksLike: mentionsWordle,
  answerProblem(answer) {
    if (isFiveLetters(answer)) return undefined;
    const key = answer.trim().toLowerCase();
    const hint = isFiveLetters(key) ? ` Normalize it to '${key}'.` : '';
    return `The answer '${answer}' is not 5 letters a–z: the Wordle agent rejects it.${hint}`;
  },
  answerIsTheTask: true,
};
