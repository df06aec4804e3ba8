import { contradictions, knowledgeFrom, type Knowledge, type ScoredGuess } from './knowledge';
import { isValidWord, markGuess, MAX_GUESSES } from './marks';

/**
 * The reference's final reward design: outcome + w × clip(shaping / 150, −1, 1).
 * The same arithmetic as test/fixtures/reward/final_design.py and the demo agent's WordleGame, so the
 * emulator and the tests agree with the Python the user deploys.
 */

interface RewardTurn {
  guess: string;
  /** `text` when the guess was recovered from raw text instead of a tool call. */
  source?: 'tool' | 'text';
}

interface ReferenceReward {
  reward: number;
  outcome: number;
  /** The shaping sum after scaling and clipping, in [−1, 1]. */
  shaping: number;
  solved: boolean;
  validGuesses: number;
}

/** Points per event, before the 1/150 scaling. */
const SHAPING_POINTS = {
  contradictGreen: -30,
  contradictYellow: -20,
  contradictGray: -20,
  repeat: -40,
  nonWord: -35,
  valid: 15,
  newLetter: 2,
  newGreen: 3,
  newYellow: 2,
  informationCap: 15,
  time: -1,
  rawText: -5,
} as const;

const SHAPING_SCALE = 150;

/** Outcome and weight: solved on guess n, lost, or never a valid guess. */
export function referenceOutcome(solvedOn: number | undefined, validGuesses: number): { outcome: number; weight: number } {
  if (solvedOn !== undefined) return { outcome: 1.05 + (0.5 * (MAX_GUESSES - solvedOn)) / 5, weight: 0.04 };
  if (validGuesses > 0) return { outcome: -0.5, weight: 0.15 };
  return { outcome: -1.5, weight: 0 };
}

/** Shaping points for one valid guess given what the guesses before it showed (`known`) and what it showed (`after`). */
function guessPoints(word: string, before: ScoredGuess[], known: Knowledge, after: Knowledge): number {
  const p = SHAPING_POINTS;
  let points = p.valid + p.time;
  for (const broken of contradictions(word, known)) {
    points += broken.startsWith('position') ? p.contradictGreen : broken.endsWith('is in the word') ? p.contradictYellow : p.contradictGray;
  }
  const seen = new Set(before.flatMap((g) => [...g.guess]));
  points += p.newLetter * new Set([...word].filter((l) => !seen.has(l))).size;
  const newGreens = after.greens.filter((l, i) => l && !known.greens[i]).length;
  const presentBefore = new Set([...known.greens.filter((l): l is string => !!l), ...known.yellows]);
  const presentAfter = new Set([...after.greens.filter((l): l is string => !!l), ...after.yellows]);
  const newYellows = [...presentAfter].filter((l) => !presentBefore.has(l)).length;
  points += Math.min(p.informationCap, p.newGreen * newGreens + p.newYellow * newYellows);
  return points;
}

/** Scores a played game: each input in order, invalid and repeated ones included; play stops at a solve or six guesses. */
export function referenceReward(answer: string, turns: readonly RewardTurn[]): ReferenceReward {
  const scored: ScoredGuess[] = [];
  // What the guesses so far showed, carried from one guess to the next.
  let known = knowledgeFrom(scored);
  let points = 0;
  let solvedOn: number | undefined;
  for (const turn of turns) {
    if (solvedOn !== undefined || scored.length >= MAX_GUESSES) break;
    const word = turn.guess.trim().toLowerCase();
    if (!isValidWord(word)) {
      points += SHAPING_POINTS.nonWord;
      continue;
    }
    if (scored.some((g) => g.guess === word)) {
      points += SHAPING_POINTS.repeat;
      continue;
    }
    const marks = markGuess(word, answer);
    const after = knowledgeFrom([...scored, { guess: word, marks }]);
    points += guessPoints(word, scored, known, after) + (turn.source === 'text' ? SHAPING_POINTS.rawText : 0);
    scored.push({ guess: word, marks });
    known = after;
    if (marks === 'GGGGG') solvedOn = scored.length;
  }
  const { outcome, weight } = referenceOutcome(solvedOn, scored.length);
  const shaping = Math.max(-1, Math.min(1, points / SHAPING_SCALE));
  return { reward: outcome + weight * shaping, outcome, shaping, solved: solvedOn !== undefined, validGuesses: scored.length };
}
