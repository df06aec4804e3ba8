import { estimateCost, type CostEstimate } from '../jobs/estimate';
import type { TokenPrices } from '../jobs/pricing';

/** Billable tokens of one rollout as a signal check measured them (no training pass: no train tokens). */
export interface SignalTokens {
  prefill: number;
  sample: number;
}

/** The planned training job's token cost, from the tokens per rollout a signal check measured. */
export function projectedTrainingCost(
  perRollout: SignalTokens,
  rollouts: number,
  prices: TokenPrices,
  source: string,
): CostEstimate & { rollouts: number } {
  // Training reads every rollout's whole text once more: train tokens ≈ prefill + sample (the published run: 6,099 ≈ 4,660 + 1,514).
  const basis = { ...perRollout, train: perRollout.prefill + perRollout.sample, source };
  return { rollouts, ...estimateCost(rollouts, [basis], prices, 'AgentRFT') };
}
