import type { WordleData, WordleTurn } from '../../../../src/core/environments/wordle';
import { prepareTranscripts } from '../../../../src/core/rollouts';
import type { Transcript } from '../../../../src/core/transcript/model';

/** A rollout as the Wordle tests read it: the transcript prepared (the pack recognizes and enriches it) and its Wordle facts flattened. */
export interface WordleView {
  trajectory_id: string;
  job_arn?: string;
  row_id?: string;
  answer?: string;
  turns: WordleTurn[];
  /** Solved in the game: the pack's own verdict (the board's `solved` is the threshold's, verdict.ts). */
  solved: boolean;
  reward?: number;
  outcome?: number;
  shaping?: number;
  rebuilt?: boolean;
  step?: number;
  stepFrom?: string;
  time?: number;
  pack?: string;
}

export function wordleView(t: Transcript): WordleView {
  const [p] = prepareTranscripts([t]);
  const data = p.env?.pack === 'wordle' ? (p.env.data as WordleData) : { turns: [] };
  return {
    trajectory_id: p.id,
    job_arn: p.jobArn,
    row_id: p.task.id,
    answer: data.answer,
    turns: data.turns,
    solved: p.env?.solved ?? p.solved === true,
    reward: p.reward,
    outcome: p.metrics?.outcome as number | undefined,
    shaping: p.metrics?.shaping as number | undefined,
    rebuilt: p.rebuilt,
    step: p.step,
    stepFrom: p.stepFrom,
    time: p.time,
    pack: p.env?.pack,
  };
}
