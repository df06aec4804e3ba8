import type { Episode } from './episode';
import type { PlayedRollout } from './policy';
import { pythonJson } from './pythonJson';

/** The tool the Wordle sample agent gives the model (its name in the real traces). */
export const WORDLE_TOOL = 'guess_word';

/** The model's reasoning before a guess: enough to read like one, derived from the game so it replays the same. */
function thinkingBefore(played: PlayedRollout, i: number): string {
  const turn = played.turns[i];
  if (i === 0) return `Starting with a word that tests common letters: ${turn.guess}.`;
  const last = played.turns[i - 1];
  if (!last.valid) return `That guess was not accepted. Trying ${turn.guess} instead.`;
  const greens = (last.marks ?? '').split('').filter((m) => m === 'G').length;
  return `${greens} letter${greens === 1 ? '' : 's'} in place after ${last.guess}. Trying ${turn.guess} next.`;
}

/** A Wordle game as its trace tells it: one model call per guess, each calling `guess_word`, the feedback text as the result. */
export function wordleEpisode(prompt: string, played: PlayedRollout): Episode {
  return {
    prompt,
    turns: played.turns.map((turn, i) => ({
      thinking: thinkingBefore(played, i),
      calls: [{ name: WORDLE_TOOL, arguments: pythonJson({ guess: turn.guess }), result: turn.feedback }],
    })),
    reward: played.reward,
    solved: played.solved,
    valid: played.turns.some((t) => t.valid),
  };
}
