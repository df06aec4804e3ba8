/** A letter's mark: G green (right place), Y yellow (in the word elsewhere), X gray. */
export type Mark = 'G' | 'Y' | 'X';

export const WORD_LENGTH = 5;
export const MAX_GUESSES = 6;

const FIVE_LETTERS = /^[a-z]{5}$/i;

/** An answer or guess the game accepts: exactly five letters a–z, any case. */
export function isValidWord(word: unknown): word is string {
  return typeof word === 'string' && FIVE_LETTERS.test(word);
}

/** Letters of the answer not matched green, by letter (a–z): one table reused, since the emulator marks millions of guesses. */
const lettersLeft = new Uint8Array(26);
const A = 97;

/** Marks for `guess` against `answer` ("GYXXG"): greens first, then yellows up to the letters left over. */
export function markGuess(guess: string, answer: string): string {
  const g = guess.toLowerCase();
  const a = answer.toLowerCase();
  if (!isValidWord(g) || !isValidWord(a)) {
    throw new Error(`markGuess needs two 5-letter words, got '${guess}' and '${answer}'`);
  }
  lettersLeft.fill(0);
  let greens = 0;
  for (let i = 0; i < WORD_LENGTH; i++) {
    if (g.charCodeAt(i) === a.charCodeAt(i)) greens |= 1 << i;
    else lettersLeft[a.charCodeAt(i) - A]++;
  }
  let marks = '';
  for (let i = 0; i < WORD_LENGTH; i++) {
    if (greens & (1 << i)) {
      marks += 'G';
      continue;
    }
    const letter = g.charCodeAt(i) - A;
    if (lettersLeft[letter] > 0) {
      lettersLeft[letter]--;
      marks += 'Y';
    } else marks += 'X';
  }
  return marks;
}

export function isMarks(text: unknown): text is string {
  return typeof text === 'string' && /^[GYX]{5}$/.test(text);
}

export const MARK_NAMES: Record<Mark, string> = { G: 'green', Y: 'yellow', X: 'gray' };
