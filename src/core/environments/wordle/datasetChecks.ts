import type { PackDatasetChecks } from '../types';

const ANSWER = /^[a-z]{5}$/;
const HINT = /wordle|5-letter|five-letter/i;

/** Wordle's rows: one prompt text, a five-letter answer each, every answer once (a repeat doubles that word's weight). */
export const wordleDatasetChecks: PackDatasetChecks = {
  convention: 'wordle',
  promptLooksLike: (prompt) => HINT.test(prompt),
  idLooksLike: (id) => /wordle/i.test(id),
  answerProblem(answer) {
    if (ANSWER.test(answer)) return undefined;
    const key = answer.trim().toLowerCase();
    const hint = ANSWER.test(key) ? ` Normalize it to '${key}'.` : '';
    return `The answer '${answer}' is not 5 letters a–z: the Wordle agent rejects it.${hint}`;
  },
  answerIsTheTask: true,
};
