import { isMarks, isValidWord, markGuess } from './marks';

/** One Wordle turn as the board's tiles show it: a guess and its marks. */
export interface WordleTurn {
  guess: string;
  /** G/Y/X per letter; from the feedback, else recomputed from the answer. */
  marks?: string;
  /** False for input that did not use a guess (not 5 letters a–z, or a repeat). */
  valid: boolean;
  /** `tool`: a real tool call; `text`: recovered from the model's raw text. */
  source: 'tool' | 'text';
  /** A guess already played (repetition penalty). */
  repeated?: boolean;
}

/** Tool calls a game allows, valid or not: more is not a game (and would cost time quadratic in its length). */
export const MAX_TOOL_CALLS = 12;

/** Applies defaults: valid true, source tool, marks recomputed from the answer, repeats flagged. */
export function normalizeTurns(raw: readonly Record<string, unknown>[], answer: string | undefined): WordleTurn[] {
  const turns: WordleTurn[] = [];
  // At most a dozen turns: an array beats a Set here, and parsing is the hot path.
  const played: string[] = [];
  for (const t of raw) {
    const guess = typeof t.guess === 'string' ? t.guess : '';
    const turn: WordleTurn = { guess, valid: t.valid !== false && isValidWord(guess), source: t.source === 'text' ? 'text' : 'tool' };
    const word = turn.valid ? guess.toLowerCase() : guess;
    if (t.repeated === true || (turn.valid && played.includes(word))) {
      turn.repeated = true;
      turn.valid = false;
    }
    if (turn.valid) {
      played.push(word);
      if (isMarks(t.marks)) turn.marks = t.marks;
      else if (answer) turn.marks = markGuess(word, answer);
    }
    turns.push(turn);
  }
  return turns;
}

/** Guesses that counted: valid, not repeated. */
export function scoredGuesses(turns: readonly WordleTurn[]): number {
  let n = 0;
  for (const t of turns) if (t.valid && !t.repeated) n++;
  return n;
}
