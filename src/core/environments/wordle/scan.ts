import type { Transcript } from '../../transcript/model';
import type { PackScanner } from '../types';
import { guessOf } from './calls';
import { contradictions, knowledgeFrom, type ScoredGuess } from './knowledge';
import { MAX_TOOL_CALLS, type WordleTurn } from './turns';

/** The transcript turn of each guess call, in the order the pack's turns list them. */
function guessTurns(t: Transcript): number[] {
  const at: number[] = [];
  t.turns.forEach((turn, i) => {
    for (const call of turn.toolCalls) if (at.length < MAX_TOOL_CALLS && guessOf(call) !== undefined) at.push(i);
  });
  return at;
}

/** A guess that ignores what the feedback already showed: the model plays as if it had not read the tiles. */
export const ignoresFeedback: PackScanner = {
  kind: 'ignores-feedback',
  rule: 'a guess that contradicts what earlier feedback revealed: a green letter moved, a yellow letter left out, or a gray letter played again',
  scan(t) {
    const turns = (t.env?.data as { turns?: WordleTurn[] } | undefined)?.turns;
    if (!turns) return undefined;
    const scored: ScoredGuess[] = [];
    for (let k = 0; k < turns.length; k++) {
      const { guess, marks, valid } = turns[k];
      if (!valid || !marks) continue;
      const broken = scored.length ? contradictions(guess, knowledgeFrom(scored)) : [];
      if (broken.length) return { turn: guessTurns(t)[k], evidence: `${guess.toUpperCase()}: ${broken[0]}` };
      scored.push({ guess, marks });
    }
    return undefined;
  },
};
