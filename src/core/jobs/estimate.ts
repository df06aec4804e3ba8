import { formatDollars, type BillableTokenUsage, type TokenPrices } from './pricing';
import type { JobCategory } from './status';

/** Average billable tokens of one rollout, and where the figure comes from. */
export interface TokensPerRollout {
  prefill: number;
  sample: number;
  train: number;
  source: string;
}

/** The published 100-step gpt-oss-20b Wordle run: 105,486 rollouts. */
export const REFERENCE_TOKENS_PER_ROLLOUT: TokensPerRollout = {
  prefill: 4660,
  sample: 1514,
  train: 6099,
  source: 'the published Wordle run',
};

/** A single basis is widened by this much each way: games vary in turns and reasoning length. */
const SINGLE_BASIS_SPREAD = 0.25;

/** Per-rollout averages of a finished job, or undefined when it has no usage or no rollouts. */
export function tokensPerRolloutOf(
  usage: BillableTokenUsage | undefined,
  rollouts: number | undefined,
  source: string,
): TokensPerRollout | undefined {
  if (!usage || !rollouts || rollouts <= 0) return undefined;
  const prefill = (usage.PrefillTokenCount ?? 0) / rollouts;
  const sample = (usage.SampleTokenCount ?? 0) / rollouts;
  const train = (usage.TrainTokenCount ?? 0) / rollouts;
  return prefill + sample + train > 0 ? { prefill, sample, train, source } : undefined;
}

export interface CostEstimate {
  low: number;
  high: number;
  /** Where the per-rollout tokens came from, in words. */
  basis: string;
}

function dollarsPerRollout(t: TokensPerRollout, prices: TokenPrices, category: JobCategory): number {
  // Evaluation has no backward pass, so no train tokens.
  const train = category === 'AgentRFT' ? t.train * prices.train : 0;
  return (t.prefill * prices.prefill + t.sample * prices.sample + train) / 1e6;
}

/** A cost range for a number of rollouts: the spread of the user's own jobs, else the reference ± 25%. */
export function estimateCost(
  rollouts: number,
  bases: readonly TokensPerRollout[],
  prices: TokenPrices,
  category: JobCategory,
): CostEstimate {
  const used = bases.length > 0 ? bases : [REFERENCE_TOKENS_PER_ROLLOUT];
  const perRollout = used.map((t) => dollarsPerRollout(t, prices, category));
  let low = Math.min(...perRollout) * rollouts;
  let high = Math.max(...perRollout) * rollouts;
  // One basis, or several that agree (jobs of one config): a real range still needs the spread of games.
  if (used.length === 1 || high - low < SINGLE_BASIS_SPREAD * low) {
    low *= 1 - SINGLE_BASIS_SPREAD;
    high *= 1 + SINGLE_BASIS_SPREAD;
  }
  const basis = bases.length > 1 ? `${bases.length} of your completed jobs of this model` : used[0].source;
  return { low, high, basis };
}

export function describeEstimate(e: CostEstimate): string {
  return `${formatDollars(e.low)} – ${formatDollars(e.high)} in tokens (per-rollout averages of ${e.basis}); AgentCore compute is billed apart`;
}
