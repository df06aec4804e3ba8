import { contradictions, type Knowledge, type PlayedTurn } from '../core/wordle';

/** A turn as the scripted agent played it: the game's turn plus whether the guess was recovered from raw text. */
export interface AgentTurn extends PlayedTurn {
  source: 'tool' | 'text';
  /** Knowledge before this turn, for the contradiction penalties. */
  before: Knowledge;
}

export interface Reward {
  reward: number;
  outcome: number;
  shaping: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The reference's final design (mtrl-reference §11): outcome + w × clip(shaping / 150, −1, 1). */
export function referenceReward(turns: readonly AgentTurn[], solved: boolean): Reward {
  const valid = turns.filter((t) => t.valid);
  if (valid.length === 0) return { reward: -1.5, outcome: -1.5, shaping: 0 };
  const outcome = solved ? 1.05 + (0.5 * (6 - valid.length)) / 5 : -0.5;
  const weight = solved ? 0.04 : 0.15;
  const shaping = Math.max(-1, Math.min(1, rawShaping(turns) / 150));
  return { reward: round(outcome + weight * shaping), outcome: round(outcome), shaping: round(shaping) };
}

function rawShaping(turns: readonly AgentTurn[]): number {
  let score = 0;
  const seen = new Set<string>();
  for (const turn of turns) {
    score -= 1; // time
    if (turn.source === 'text') score -= 5;
    if (turn.repeated) {
      score -= 40;
      continue;
    }
    if (!turn.valid) {
      score -= 35;
      continue;
    }
    score += 15;
    const word = turn.guess.toLowerCase();
    for (const letter of new Set(word)) if (!seen.has(letter)) score += 2;
    for (const letter of word) seen.add(letter);
    const k = turn.before;
    for (const c of contradictions(word, k)) score -= c.startsWith('position') ? 30 : 20;
    // Information: each letter placed or found narrows the candidates.
    score += Math.min(15, 3 * [...(turn.marks ?? '')].filter((m) => m !== 'X').length);
  }
  return score;
}
