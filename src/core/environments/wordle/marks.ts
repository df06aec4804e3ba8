/** A letter's mark: G green (right place), Y yellow (in the word elsewhere), X gray. */
export type Mark = 'G' | 'Y' | 'X';

export const WORD_LENGTH = 5;
export const MAX_GUESSES = 6;

const FIVE_LETTERS = /^[a-z]{5}$/i;

/** An answer or guess the game accepts: exactly five letters a–z, any case. */
export function isValidWord(word: unknown): word is string {
  return typeof word === 'string' && FIVE_LETTERS.test(word);
}

/** Marks for `guess` against `answer` ("GYXXG"): greens first, then yellows up to the letters left over. */
export function markGuess(guess: string, answer: string): string {
  const g = guess.toLowerCase();
  const a = answer.toLowerCase();
  if (!isValidWord(g) || !isValidWord(a)) {
    throw new Error(`markGuess needs two 5-letter words, got '${guess}' and '${answer}'`);
  }
  const marks: Mark[] = ['X', 'X', 'X', 'X', 'X'];
  const unmatched = new Map<string, number>();
  for (let i = 0; i < WORD_LENGTH; i++) {
    if (g[i] === a[i]) marks[i] = 'G';
    else unmatched.set(a[i], (unmatched.get(a[i]) ?? 0) + 1);
  }
  for (let i = 0; i < WORD_LENGTH; i++) {
    if (marks[i] === 'G') continue;
    const left = unmatched.get(g[i]) ?? 0;
    if (left > 0) {
      marks[i] = 'Y';
      unmatched.set(g[i], left - 1);
    }
  }
  return marks.join('');
}

export function isMarks(text: unknown): text is string {
  return typeof text === 'string' && /^[GYX]{5}$/.test(text);
}

export const MARK_NAMES: Record<Mark, string> = { G: 'green', Y: 'yellow', X: 'gray' };
