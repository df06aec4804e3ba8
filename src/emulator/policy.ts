import { markGuess, WordleGame, type ScoredGuess } from '../core/wordle';
import { Random } from './random';
import { referenceReward, type AgentTurn, type Reward } from './reward';

/** One rollout as the emulator logs it: the game and its reward. */
export interface PlayedRollout extends Reward {
  answer: string;
  turns: AgentTurn[];
  solved: boolean;
}

const JUNK = ['', 'xx', 'crane!', 'I think', 'ab cd', 'wordy words', '12345'];
const SAMPLE = 30;

/**
 * A scripted player of mixed skill: a skilled move guesses a word consistent with the feedback so far
 * from a random sample of the pool (which holds the answer with probability `skill`), an unskilled one
 * any word; a few inputs are invalid, repeated or recovered from raw text, and a few games never make a valid guess.
 */
export function playRollout(answer: string, pool: readonly string[], skill: number, rng: Random): PlayedRollout {
  const game = new WordleGame(answer);
  const turns: AgentTurn[] = [];
  const scored: ScoredGuess[] = [];
  const noPlay = rng.chance(0.03);
  // Words of the sample still consistent with every feedback, narrowed after each valid guess.
  let candidates = Array.from({ length: SAMPLE }, () => rng.pick(pool));
  if (rng.chance(skill)) candidates[rng.int(SAMPLE)] = answer;
  while (game.status === 'playing') {
    const before = game.knowledge;
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
    turns.push({ ...turn, source, before });
  }
  const solved = game.status === 'solved';
  return { answer, turns, solved, ...referenceReward(turns, solved) };
}
