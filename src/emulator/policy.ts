import { referenceReward } from '../core/environments/wordle/referenceReward';
import { markGuess, WordleGame, type PlayedTurn, type ScoredGuess } from '../core/environments/wordle';
import { Random } from './random';

/** A turn as the scripted agent played it: the game's turn plus whether the guess was recovered from raw text. */
interface AgentTurn extends PlayedTurn {
  source: 'tool' | 'text';
}

/** One rollout as the emulator logs it: the game and its reward (rounded to 3 decimals, as the record shows it). */
export interface PlayedRollout {
  answer: string;
  turns: AgentTurn[];
  solved: boolean;
  reward: number;
  outcome: number;
  shaping: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

const JUNK = ['', 'xx', 'crane!', 'I think', 'ab cd', 'wordy words', '12345'];
const SAMPLE = 30;

/**
 * A scripted player of mixed skill: a skilled move guesses a word consistent with the feedback so far
 * from a random sample of the pool (which holds the answer with probability `skill`), an unskilled one
 * any word; a few inputs are invalid, repeated or recovered from raw text, and a few games never make a valid guess.
 * `feedback: false` plays the same game without the tool's feedback text, for its reward and turns alone.
 */
export function playRollout(answer: string, pool: readonly string[], skill: number, rng: Random, { feedback = true } = {}): PlayedRollout {
  const game = new WordleGame(answer, { feedback });
  const turns: AgentTurn[] = [];
  const scored: ScoredGuess[] = [];
  const noPlay = rng.chance(0.03);
  // Words of the sample still consistent with every feedback, narrowed after each valid guess.
  let candidates = Array.from({ length: SAMPLE }, () => rng.pick(pool));
  if (rng.chance(skill)) candidates[rng.int(SAMPLE)] = answer;
  while (game.status === 'playing') {
    let input: string;
    let source: 'tool' | 'text' = 'tool';
    if (noPlay) {
      if (turns.length >= 1 + rng.int(2)) break;
      input = rng.pick(JUNK);
    } else if (rng.chance(0.05)) {
      input = rng.pick(JUNK);
    } else if (scored.length > 0 && rng.chance(0.03)) {
      input = rng.pick(scored).guess;
    } else {
      input = rng.chance(skill) && candidates.length ? rng.pick(candidates) : rng.pick(pool);
      if (rng.chance(0.05)) source = 'text';
    }
    const turn = game.guess(input);
    if (turn.valid && turn.marks) {
      const played: ScoredGuess = { guess: turn.guess, marks: turn.marks };
      scored.push(played);
      candidates = candidates.filter((w) => w !== played.guess && markGuess(played.guess, w) === played.marks);
    }
    turns.push({ ...turn, source });
  }
  const { reward, outcome, shaping, solved } = referenceReward(answer, turns);
  return { answer, turns, solved, reward: round(reward), outcome: round(outcome), shaping: round(shaping) };
}
