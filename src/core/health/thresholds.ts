/** The thresholds a run's curves are checked against: each is a `mtrl.health.*` setting with this default. */
export interface HealthThresholds {
  /** Steps in a row a condition must hold before it is a finding (truncation, no signal, collapse, failing rollouts). */
  steps: number;
  /** Share of a step's groups whose rollouts all scored the same (zero advantage) that means no signal. */
  zeroAdvantageShare: number;
  /** Share of its first steps' level that within-group spread and advantage std (or turns, response length) fall to in a collapse. */
  collapseShare: number;
  /** How far validation (pass@1, else mean reward) must fall below its best to count, in the metric's own units. */
  validationDrop: number;
  /** Validation points in a row below the best, while training reward rises, before it is overfitting. */
  validationPoints: number;
  /** Share of a step's rollouts failed or invalid that is a finding: the share that cancels a job is not documented, so this is a guess. */
  failedRolloutShare: number;
  /** Median step times without a new step, while the job is in progress, before it is stalled. */
  stalledStepTimes: number;
}

export const HEALTH_DEFAULTS: Readonly<HealthThresholds> = {
  steps: 2,
  // Not the guide's 50 %: a partial-credit task the policy nearly solved (the refund desk, the real support run at mean reward 0.9) has 40–69 % such groups while it still learns.
  zeroAdvantageShare: 0.6,
  collapseShare: 0.25,
  validationDrop: 0.1,
  validationPoints: 2,
  failedRolloutShare: 0.2,
  stalledStepTimes: 3,
};
