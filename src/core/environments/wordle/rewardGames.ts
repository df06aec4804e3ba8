import { contradictions, isConsistent, knowledgeFrom, type ScoredGuess } from './knowledge';
import { isValidWord, markGuess, MAX_GUESSES } from './marks';
import { WORDS } from './words';

/** One scripted game a reward is scored on. */
export interface CanonicalGame {
  name: string;
  guesses: string[];
  /** The guess number that solves it, absent for losses and no-play. */
  solvedOn?: number;
  kind: 'solve' | 'loss' | 'no-play';
  /** The guesses came as plain text, not tool calls: scored by the agent's raw-text rule. */
  asText?: true;
}

interface CanonicalGames {
  answer: string;
  games: CanonicalGame[];
  /** Sentences about games that could not be exactly what their name says for this answer. */
  notes: string[];
}

export const DEFAULT_ANSWER = 'crane';

/** Input that never makes a valid guess: too short, digits, too long, a space. */
const INVALID_INPUTS = ['xx', 'c4ane', 'abcdef', 'two words'];

/** The feedback of `guess` against `answer` as a number (base 3 per letter): markGuess without strings, for the hot loop. */
function feedbackCode(guess: string, answer: string): number {
  const left = new Uint8Array(26);
  let greens = 0;
  for (let i = 0; i < 5; i++) {
    if (guess.charCodeAt(i) === answer.charCodeAt(i)) greens |= 1 << i;
    else left[answer.charCodeAt(i) - 97]++;
  }
  let code = 0;
  for (let i = 0; i < 5; i++) {
    let mark = 0;
    if (greens & (1 << i)) mark = 2;
    else if (left[guess.charCodeAt(i) - 97] > 0) {
      left[guess.charCodeAt(i) - 97]--;
      mark = 1;
    }
    code = code * 3 + mark;
  }
  return code;
}

/** How many words of `pool` would still be possible after `guess`: those giving the same feedback as the answer. */
function remainingAfter(guess: string, answer: string, pool: readonly string[]): number {
  const pattern = feedbackCode(guess, answer);
  let count = 0;
  for (const word of pool) if (feedbackCode(guess, word) === pattern) count++;
  return count;
}

/** Words not yet guessed and not the answer. */
function unused(words: readonly string[], answer: string, history: readonly ScoredGuess[]): string[] {
  return words.filter((w) => w !== answer && !history.some((h) => h.guess === w));
}

/**
 * Six wrong guesses, each consistent with all feedback before it. Each step keeps the most words in play
 * (the least informative consistent guess), so the chain lasts; ties go to alphabetical order.
 */
function consistentPath(answer: string, words: readonly string[], notes: string[]): ScoredGuess[] {
  const history: ScoredGuess[] = [];
  for (let step = 0; step < MAX_GUESSES; step++) {
    const pool = unused(words, answer, history).filter((w) => isConsistent(w, history));
    let best: string | undefined;
    let bestLeft = -1;
    for (const word of pool) {
      const left = remainingAfter(word, answer, pool);
      if (left > bestLeft) [best, bestLeft] = [word, left];
    }
    if (!best) {
      best = leastContradicting(answer, words, history);
      notes.push(
        `No listed word is consistent with the feedback before guess ${step + 1} for '${answer}'; ` +
          `'${best}' (the least contradicting) is used, so ${step + 2 <= MAX_GUESSES ? `solve@${step + 2} onwards and the loss are` : 'the loss is'} not fully consistent.`,
      );
    }
    history.push({ guess: best, marks: markGuess(best, answer) });
  }
  return history;
}

function leastContradicting(answer: string, words: readonly string[], history: readonly ScoredGuess[]): string {
  const knowledge = knowledgeFrom(history);
  let best = '';
  let fewest = Infinity;
  for (const word of unused(words, answer, history)) {
    const count = contradictions(word, knowledge).length;
    if (count < fewest) [best, fewest] = [word, count];
  }
  return best;
}

/** Wrong guesses that ignore the feedback: after the first, each breaks as many known facts as any listed word. */
function contradictingPath(answer: string, words: readonly string[], first: string, notes: string[]): string[] {
  const history: ScoredGuess[] = [{ guess: first, marks: markGuess(first, answer) }];
  for (let step = 1; step < MAX_GUESSES; step++) {
    const knowledge = knowledgeFrom(history);
    let best = '';
    let most = -1;
    for (const word of unused(words, answer, history)) {
      const count = contradictions(word, knowledge).length;
      if (count > most) [best, most] = [word, count];
    }
    if (most === 0) notes.push(`Guess ${step + 1} of the contradicting games contradicts nothing known for '${answer}'.`);
    history.push({ guess: best, marks: markGuess(best, answer) });
  }
  return history.map((h) => h.guess);
}

/** Choosing the games costs far more than playing them, and the answer rarely changes: remember them per answer. */
const chosen = new Map<string, CanonicalGames>();

/** The games every reward is scored on, chosen with the Wordle rules from the shipped word list. */
export function canonicalGames(answerInput: string = DEFAULT_ANSWER, words: readonly string[] = WORDS): CanonicalGames {
  if (!isValidWord(answerInput)) throw new Error(`The answer '${answerInput}' is not 5 letters a-z.`);
  const answer = answerInput.toLowerCase();
  if (words !== WORDS) return chooseGames(answer, words);
  if (!chosen.has(answer)) chosen.set(answer, chooseGames(answer, words));
  return structuredClone(chosen.get(answer)!);
}

function chooseGames(answer: string, words: readonly string[]): CanonicalGames {
  const list = words.filter(isValidWord).map((w) => w.toLowerCase());
  const notes: string[] = [];
  const path = consistentPath(answer, list, notes).map((h) => h.guess);
  const contra = contradictingPath(answer, list, path[0], notes);
  const games: CanonicalGame[] = [];
  for (let n = 1; n <= MAX_GUESSES; n++) {
    games.push({ name: `solve@${n}`, guesses: [...path.slice(0, n - 1), answer], solvedOn: n, kind: 'solve' });
  }
  games.push({ name: 'solve@3-raw-text', guesses: [...path.slice(0, 2), answer], solvedOn: 3, kind: 'solve', asText: true });
  games.push({ name: 'solve@6-contradicting', guesses: [...contra.slice(0, 5), answer], solvedOn: 6, kind: 'solve' });
  games.push({ name: 'loss', guesses: path, kind: 'loss' });
  games.push({ name: 'loss-contradicting', guesses: contra, kind: 'loss' });
  games.push({ name: 'no-play', guesses: [...INVALID_INPUTS], kind: 'no-play' });
  return { answer, games, notes };
}
