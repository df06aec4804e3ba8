import type { Transcript } from '../transcript/model';

// One definition of the verdicts every surface states about rollouts (`mtrl rollouts`, `mtrl signal`, the what-if
// `mtrl reward --rescore`, the board, comparisons): solved, partial credit, zero advantage, step-unknown groups.

/** The success threshold when the job names none (the SDK evaluator's default `success_threshold`). */
export const DEFAULT_SUCCESS_THRESHOLD = 1.0;

// Equal rewards as GRPO sees them: float noise is not a learning signal, nor a missed threshold.
const EPSILON = 1e-9;

/** Solved as the service counts it for `eval/reward/pass_at_k`: reward at or above the job's `success_threshold`. */
export function isSolved(reward: number | undefined, threshold = DEFAULT_SUCCESS_THRESHOLD): boolean {
  return reward !== undefined && reward >= threshold - EPSILON;
}

/** Partial credit when not solved: a reward above 0 (float noise is no credit). */
export function isPartialCredit(reward: number | undefined): boolean {
  return reward !== undefined && reward > EPSILON;
}

/** solved; partial credit (a reward above 0, below the threshold); lost (played, nothing earned); no-play (never a move). */
export type RolloutOutcome = 'solved' | 'partial' | 'lost' | 'no-play';

/** The reward a rollout brings to its group in training: a failed one or one without a reward counts 0; a skipped one none. */
export function trainingReward(t: Pick<Transcript, 'status' | 'reward'>): number | undefined {
  if (t.status === 'skipped') return undefined;
  return t.status === 'error' || t.reward === undefined ? 0 : t.reward;
}

/** A group of two or more rollouts whose rewards are all equal: every advantage is 0, GRPO learns nothing from it. */
export function isZeroAdvantage(rewards: readonly number[]): boolean {
  if (rewards.length < 2) return false;
  let min = Infinity;
  let max = -Infinity;
  for (const r of rewards) {
    if (r < min) min = r;
    if (r > max) max = r;
  }
  return max - min <= EPSILON;
}

/** The zero-advantage test over a group's rollouts, with the rewards training gives them. */
export function isZeroAdvantageGroup(members: readonly Pick<Transcript, 'status' | 'reward'>[]): boolean {
  return isZeroAdvantage(members.map(trainingReward).filter((r): r is number => r !== undefined));
}

/** How a group's step reads: its number, or "step unknown" (the group pools every step of its task). */
export function stepLabel(step: number | undefined): string {
  return step === undefined ? 'step unknown' : `step ${step}`;
}

const rewardText = (r: number) => String(Math.round(r * 100) / 100);

/** A rollout's verdict in words: `solved`, `partial 0.75`, `not solved`. */
export function verdictText(t: Pick<Transcript, 'solved' | 'reward'>): string {
  if (t.solved) return 'solved';
  return t.reward !== undefined && isPartialCredit(t.reward) ? `partial ${rewardText(t.reward)}` : 'not solved';
}

/** Where a pack's own verdict differs from the threshold's: a stable key (scripts read it in `--json`) and its words. */
export const PACK_VERDICT_DIFFERS = {
  solved_in_game_below_threshold: 'solved in game, below threshold',
  not_solved_in_game_at_or_above_threshold: 'not solved in game, at or above threshold',
} as const;
export type PackVerdictDiffers = keyof typeof PACK_VERDICT_DIFFERS;

/** How the pack's own verdict differs from the threshold's; undefined where it agrees or the pack has none. */
export function packVerdictDiffers(t: Pick<Transcript, 'solved' | 'env'>): PackVerdictDiffers | undefined {
  const inGame = t.env?.solved;
  if (inGame === undefined || inGame === !!t.solved) return undefined;
  return inGame ? 'solved_in_game_below_threshold' : 'not_solved_in_game_at_or_above_threshold';
}

/** The pack's own verdict where it differs from the threshold's, said beside it: `solved in game, below threshold`. */
export function packVerdictNote(t: Pick<Transcript, 'solved' | 'env'>): string | undefined {
  const differs = packVerdictDiffers(t);
  return differs && PACK_VERDICT_DIFFERS[differs];
}

/** The counts said beside a solved count: `; solved in game, below threshold: 2`. */
export function packVerdictsText(counts: Partial<Record<PackVerdictDiffers, number>>): string {
  return Object.entries(counts)
    .map(([key, n]) => `; ${PACK_VERDICT_DIFFERS[key as PackVerdictDiffers]}: ${n}`)
    .join('');
}

/** Counts of each way the pack's verdict differs, over the rollouts given; empty when none does. */
export function packVerdictCounts(rollouts: Iterable<Pick<Transcript, 'solved' | 'env'>>): Partial<Record<PackVerdictDiffers, number>> {
  const counts: Partial<Record<PackVerdictDiffers, number>> = {};
  for (const r of rollouts) {
    const differs = packVerdictDiffers(r);
    if (differs) counts[differs] = (counts[differs] ?? 0) + 1;
  }
  return counts;
}
