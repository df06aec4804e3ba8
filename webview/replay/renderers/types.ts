import type { Transcript } from '../../../src/core/transcript/model';

/** What the player tells a renderer besides the transcript. */
export interface TurnView {
  /** Steps revealed so far by step-through play (0: none yet). */
  shown: number;
  /** The first turn where the compared rollout acts differently (0-based), marked on both boards. */
  firstDifference?: number;
  /** Keys of the sections the user opened (thinking, task): kept while the player steps through turns. */
  opened: Set<string>;
}

/**
 * Draws one environment's rollouts; the board picks it by `transcript.env.pack` (as VS Code picks a notebook renderer by
 * MIME type). The player around it owns the header's id, the reward line, the controls and the keys.
 */
export interface TranscriptRenderer {
  /** The pack it draws; the generic transcript view has none. */
  pack?: string;
  /** Where the player opens: a game replays from an empty board, a transcript opens whole. */
  opensAt: 'start' | 'end';
  /** The heading: the task in the pack's words. */
  title(transcript: Transcript): string;
  /** What the player steps through (a game: its moves); the transcript's turns when absent. */
  steps?(transcript: Transcript): number;
  render(transcript: Transcript, view: TurnView): HTMLElement;
}
