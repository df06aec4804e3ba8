import { isValidWord, markGuess, MAX_GUESSES, WORD_LENGTH, type Mark } from './marks';

/** One scored guess. */
export interface ScoredGuess {
  guess: string;
  marks: string;
}

/** What the player knows after some guesses: the "Current Knowledge" block of the tool feedback. */
export interface Knowledge {
  /** Letter (lower case) known at each position, or null. */
  greens: (string | null)[];
  /** Letters known to be in the word but not yet placed, in the order found. */
  yellows: string[];
  /** Letters known not to be in the word, in the order found. */
  grays: string[];
  /** Guesses so far (lower case), in order. */
  guessed: string[];
  guessesRemaining: number;
}

export function knowledgeFrom(guesses: readonly ScoredGuess[], maxGuesses = MAX_GUESSES): Knowledge {
  const greens: (string | null)[] = new Array(WORD_LENGTH).fill(null);
  const present = new Set<string>();
  const yellowOrder: string[] = [];
  const grayOrder: string[] = [];
  for (const { guess, marks } of guesses) {
    const g = guess.toLowerCase();
    for (let i = 0; i < WORD_LENGTH; i++) {
      const mark = marks[i] as Mark;
      if (mark === 'G') {
        greens[i] = g[i];
        present.add(g[i]);
      } else if (mark === 'Y') {
        present.add(g[i]);
        if (!yellowOrder.includes(g[i])) yellowOrder.push(g[i]);
      }
    }
    for (let i = 0; i < WORD_LENGTH; i++) {
      // A gray for a surplus copy of a letter found elsewhere does not mean "not in word".
      if (marks[i] === 'X' && !present.has(g[i]) && !grayOrder.includes(g[i])) grayOrder.push(g[i]);
    }
  }
  return {
    greens,
    yellows: yellowOrder.filter((l) => !greens.includes(l)),
    grays: grayOrder.filter((l) => !present.has(l)),
    guessed: guesses.map((g) => g.guess.toLowerCase()),
    guessesRemaining: Math.max(0, maxGuesses - guesses.length),
  };
}

/** True when `candidate` could still be the answer given every scored guess (hard-mode consistency). */
export function isConsistent(candidate: string, guesses: readonly ScoredGuess[]): boolean {
  if (!isValidWord(candidate)) return false;
  return guesses.every(({ guess, marks }) => markGuess(guess, candidate) === marks);
}

/** Guesses that ignore what the feedback already showed: a green moved, a yellow dropped or a gray reused. */
export function contradictions(guess: string, knowledge: Knowledge): string[] {
  const g = guess.toLowerCase();
  const found: string[] = [];
  knowledge.greens.forEach((letter, i) => {
    if (letter && g[i] !== letter) found.push(`position ${i + 1} must be ${letter.toUpperCase()}`);
  });
  for (const letter of knowledge.yellows) {
    if (!g.includes(letter)) found.push(`${letter.toUpperCase()} is in the word`);
  }
  for (const letter of knowledge.grays) {
    if (g.includes(letter)) found.push(`${letter.toUpperCase()} is not in the word`);
  }
  return found;
}
