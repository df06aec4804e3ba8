import type { InvariantResult, ScoredGame } from './invariants';
import type { HarnessError, HarnessRunFailure } from './protocol';

/** The user's reward scored on every canonical game, with the invariants checked. */
export interface RewardPreview {
  ok: true;
  answer: string;
  convention: 'class' | 'function';
  target: string;
  /** 1-based line of `final_reward` or of the entry function. */
  line: number;
  stubbed: string[];
  games: ScoredGame[];
  invariants: InvariantResult[];
  /** Games that could not be exactly what their name says for this answer. */
  notes: string[];
}

/** Why the reward could not be scored; `line`/`column` point into the user's file when known. */
export type RewardPreviewFailure = Omit<HarnessError, 'error'> & {
  error: HarnessError['error'] | HarnessRunFailure['error'] | 'invalid-answer';
};

export interface PreviewOutcome {
  result: RewardPreview | RewardPreviewFailure;
  stderr: string;
  pid?: number;
}
