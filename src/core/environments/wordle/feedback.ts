import { type Knowledge } from './knowledge';
import { isMarks, MARK_NAMES, MAX_GUESSES, type Mark } from './marks';

/** The tool feedback text the model sees, exactly as the reference agent writes it. */

function renderGuessLine(n: number, guess: string, marks: string, maxGuesses = MAX_GUESSES): string {
  const word = guess.toUpperCase();
  if (marks === 'GGGGG') return `Guess ${n}/${maxGuesses}: ${word} — all green. Correct, you solved it!`;
  const letters = [...word].map((l, i) => `${l}=${MARK_NAMES[marks[i] as Mark]}`).join(', ');
  return `Guess ${n}/${maxGuesses}: ${word} -> ${letters}`;
}

export function renderKnowledge(k: Knowledge): string {
  const list = (letters: string[]) => (letters.length ? letters.map((l) => l.toUpperCase()).join(', ') : 'None');
  return [
    'Current Knowledge:',
    `- Correct Position (Green): ${k.greens.map((l) => (l ? l.toUpperCase() : '_')).join(' ')}`,
    `- In Word, Wrong Position (Yellow): ${list(k.yellows)}`,
    `- Not in Word (Gray): ${list(k.grays)}`,
    `- Words Already Guessed: ${k.guessed.length ? k.guessed.map((w) => w.toUpperCase()).join(', ') : 'None'}`,
    `- Guesses Remaining: ${k.guessesRemaining}`,
  ].join('\n');
}

/** Feedback after a scored guess: the guess line, then the knowledge block unless the guess solved it. */
export function renderFeedback(n: number, guess: string, marks: string, k: Knowledge): string {
  const line = renderGuessLine(n, guess, marks);
  return marks === 'GGGGG' ? line : `${line}\n${renderKnowledge(k)}`;
}

export function renderInvalid(input: string, guessesRemaining: number): string {
  return `Invalid guess '${input}': must be exactly 5 letters (a-z only). This did not use a guess; Guesses Remaining: ${guessesRemaining}`;
}

export function renderRepeat(word: string): string {
  return `You already guessed ${word.toUpperCase()} (repetition penalty). Try a different word.`;
}

export function renderLoss(answer: string): string {
  return `Out of guesses. The word was ${answer.toUpperCase()}.`;
}

/** One turn read back from feedback text. */
export interface ParsedTurn {
  guess: string;
  /** G/Y/X marks; absent for invalid and repeated input. */
  marks?: string;
  valid: boolean;
  repeated?: boolean;
  /** The guess number the text gave ("Guess 3/6"), when it gave one. */
  number?: number;
}

const GUESS_LINE = /Guess (\d+)\/\d+: ([A-Za-z]{5}) -> ((?:[A-Za-z]=(?:green|yellow|gray)(?:, )?){5})/;
const SOLVE_LINE = /Guess (\d+)\/\d+: ([A-Za-z]{5}) — all green/;
const INVALID_LINE = /Invalid guess '((?:[^'\\]|\\.)*)': must be exactly 5 letters/;
const REPEAT_LINE = /You already guessed ([A-Za-z]+) \(repetition penalty\)/;
const COLOR_TO_MARK: Record<string, Mark> = { green: 'G', yellow: 'Y', gray: 'X' };

/** Parses one line of feedback text (log prefixes allowed) into a turn, or undefined if it holds none. */
export function parseFeedbackLine(line: string): ParsedTurn | undefined {
  let m = GUESS_LINE.exec(line);
  if (m) {
    const marks = m[3]
      .split(', ')
      .map((pair) => COLOR_TO_MARK[pair.slice(2)])
      .join('');
    if (isMarks(marks)) return { guess: m[2].toLowerCase(), marks, valid: true, number: Number(m[1]) };
  }
  m = SOLVE_LINE.exec(line);
  if (m) return { guess: m[2].toLowerCase(), marks: 'GGGGG', valid: true, number: Number(m[1]) };
  m = INVALID_LINE.exec(line);
  if (m) return { guess: m[1], valid: false };
  m = REPEAT_LINE.exec(line);
  if (m) return { guess: m[1].toLowerCase(), valid: false, repeated: true };
  return undefined;
}

/** Every turn in a block of feedback text, in order. */
export function parseFeedback(text: string): ParsedTurn[] {
  const turns: ParsedTurn[] = [];
  for (const line of text.split(/\r?\n/)) {
    const turn = parseFeedbackLine(line);
    if (turn) turns.push(turn);
  }
  return turns;
}
