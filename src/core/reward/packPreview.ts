import type { CanonicalGame } from './invariants';

// What a pack hands the Python-file reward preview (Wordle's scripted games); it goes when the preview becomes scenarios (issue #38).

/** A pack's side of the reward preview: scripted games for an answer, and how the page draws one move. */
export interface PackRewardPreview {
  defaultAnswer: string;
  /** Why `answer` cannot be this environment's answer (a sentence for the user), or undefined when it can. */
  answerProblem(answer: string): string | undefined;
  /** The games a reward is scored on, with notes on games that could not be what their name says for this answer. */
  games(answer: string): { answer: string; games: CanonicalGame[]; notes: string[] };
  /** One move as tiles, or undefined when it is not a valid move (the page shows it struck out). */
  tiles(move: string, answer: string): PreviewTile[] | undefined;
}

export interface PreviewTile {
  letter: string;
  /** The page colours a tile by it (Wordle: G, Y or X). */
  mark: string;
  /** The mark read aloud: `green`. */
  name: string;
}
