import { rewardRuleProblem } from '../numberRules';
import {
  DEFAULT_SUCCESS_THRESHOLD,
  isPartialCredit,
  isSolved,
  isZeroAdvantage,
  packVerdictCounts,
  trainingReward,
  type PackVerdictDiffers,
} from '../rollouts/verdict';
import type { Transcript } from '../transcript/model';
import { componentSignal, type ComponentSpread } from './componentSpread';
import { resultsNotSeen, resultsNotSeenWarning } from '../transcript/resultsNotSeen';

/** Will this run learn? What a batch of rollouts (G per task) says about GRPO's learning signal. */
export interface SignalReport {
  rollouts: number;
  /** Rollouts whose reward reached the success threshold (verdict.ts), as every other surface counts them. */
  solved: number;
  /** Where a pack's own verdict differs from the threshold's ("solved in game, below threshold"): how many; absent when none. */
  packVerdicts?: Partial<Record<PackVerdictDiffers, number>>;
  /** Rollouts that ended in an error (a failed trajectory, reward 0 in training). */
  failed: number;
  /** Rollouts not matched to a dataset row: grouped by their first message only. */
  unmatched: number;
  /** Groups (task × step) with two or more rollouts: the ones GRPO compares. */
  groups: number;
  /** Groups of a single rollout: nothing to compare it with (counted apart from `groups`). */
  singleRolloutGroups: number;
  /** Groups whose step is unknown, single-rollout ones included: each pools every step of its task. */
  stepUnknownGroups: number;
  /** The most common number of rollouts per task. */
  groupSize: number;
  successThreshold: number;
  rewards: { mean: number; min: number; max: number; histogram: { from: number; to: number; count: number }[] } | null;
  /** `solvedBy[k]`: tasks of `groupSize` rollouts (one-rollout tasks too, when that is the size) where exactly k succeeded
   * (reward ≥ the threshold). */
  solvedBy: number[];
  /** Tasks whose number of rollouts is not `groupSize`: left out of `solvedBy` (absent when none). */
  tasksOfOtherSize?: number;
  /** Groups whose rewards are all equal: zero advantage, nothing to learn. */
  zeroAdvantage: {
    groups: number;
    share: number | null;
    /** Flat groups where every rollout succeeded. */
    alwaysSolved: number;
    /** Flat groups where every rollout scored 0 or less. */
    neverSolved: number;
    /** Flat groups where every rollout got the same partial credit (above 0, below the threshold). */
    samePartialCredit: number;
  };
  meanWithinGroupSpread: number | null;
  /** The same spread per reward component the agents reported in their metrics (outcome, shaping); absent when none did. */
  components?: ComponentSpread[];
  /** Groups where every rollout has the same `outcome` but the totals differ; absent without components. */
  outcomeTiedGroups?: number;
  /** Estimated zero-advantage share at other group sizes, from each task's rewards here (partial credit included). */
  atGroupSize: { groupSize: number; share: number }[];
  /** What limits trust in the figures (too few tasks, tool results not seen); absent in reports kept before they existed. */
  warnings?: string[];
  /** Fewer than ENOUGH_TASKS tasks or ENOUGH_ROLLOUTS rollouts: the verdict never says "ready to train". */
  thinEvidence?: boolean;
  recommendations: string[];
}

/** Below these, shares move by whole tens of percent from one run to the next: the verdict says so. */
export const ENOUGH_TASKS = 8;
export const ENOUGH_ROLLOUTS = 32;

// Equal rewards as GRPO sees them: float noise is not a learning signal.
const EPSILON = 1e-9;
const BINS = 10;

function std(values: readonly number[]): number {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
}

/** The share of each distinct value among the rewards (equal within EPSILON). */
function valueShares(rewards: readonly number[]): number[] {
  const sorted = [...rewards].sort((a, b) => a - b);
  const counts: number[] = [];
  sorted.forEach((v, i) => (i > 0 && v - sorted[i - 1] <= EPSILON ? counts[counts.length - 1]++ : counts.push(1)));
  return counts.map((c) => c / rewards.length);
}

function histogram(values: readonly number[]): { from: number; to: number; count: number }[] {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (max - min <= EPSILON) return [{ from: min, to: max, count: values.length }];
  const width = (max - min) / BINS;
  const bins = Array.from({ length: BINS }, (_, i) => ({ from: min + i * width, to: min + (i + 1) * width, count: 0 }));
  for (const v of values) bins[Math.min(BINS - 1, Math.floor((v - min) / width))].count++;
  return bins;
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

const thin = (r: { groups: number; rollouts: number }) => r.groups < ENOUGH_TASKS || r.rollouts < ENOUGH_ROLLOUTS;

/** The plain-words advice the figures support, most important first. */
function recommend(r: Omit<SignalReport, 'recommendations' | 'warnings' | 'thinEvidence'>, rolloutsSource?: string): string[] {
  const out: string[] = [];
  if (!r.groups)
    return [
      r.rollouts > 1 && r.unmatched === r.rollouts
        ? 'No two rollouts share a task. If they played the same rows, their first messages differ (agents add per-rollout text to the prompt): pass --data DATASET to match each to its row; else run at least 2 rollouts per task (the planned group_size).'
        : 'No task has two or more rollouts: run at least 2 rollouts per task (the planned group_size) to see a learning signal.',
    ];
  // A failed rollout's 0 is the agent's failure, not the task's difficulty: advice on tasks and reward would mislead.
  if (r.failed)
    return [
      `${r.failed} of ${r.rollouts} rollouts failed: in a job each is a failed trajectory (reward 0), and too many cancel the job. Fix the agent first; advice on tasks and reward needs rollouts that played.`,
    ];
  const always = r.zeroAdvantage.alwaysSolved / r.groups;
  const never = r.zeroAdvantage.neverSolved / r.groups;
  const flat = r.zeroAdvantage.samePartialCredit / r.groups;
  if (always >= 0.2) out.push(`${pct(always)} of tasks are solved by every rollout: they teach nothing. Drop them or make them harder.`);
  if (never >= 0.2)
    out.push(
      `${pct(never)} of tasks are never solved: with equal rewards they teach nothing. Add easier tasks, or give partial credit on the way.`,
    );
  if (flat >= 0.2)
    out.push(
      `${pct(flat)} of tasks give every rollout the same partial credit: the reward does not tell them apart. Change the reward (try it on these rollouts with mtrl reward REWARD.mtrl-reward.json ${rolloutsSource ?? '--rescore ROLLOUTS.jsonl'}).`,
    );
  const better = r.atGroupSize.find(
    (g) => g.groupSize > r.groupSize && r.zeroAdvantage.share !== null && g.share < r.zeroAdvantage.share - 0.1,
  );
  if (better)
    out.push(
      `Raise group_size from ${r.groupSize} to ${better.groupSize}: an estimated ${pct(better.share)} of groups would have zero advantage instead of ${pct(r.zeroAdvantage.share!)}.`,
    );
  if (!out.length)
    out.push(
      thin(r)
        ? `${pct(1 - (r.zeroAdvantage.share ?? 0))} of groups have a learning signal so far, too few to decide on: play at least ${ENOUGH_TASKS} tasks and ${ENOUGH_ROLLOUTS} rollouts before training.`
        : `${pct(1 - (r.zeroAdvantage.share ?? 0))} of groups have a learning signal: this dataset, agent and reward are ready to train.`,
    );
  return out;
}

/**
 * The signal report over rollouts grouped by task (`groupKey`); rollouts without a reward count as failed with reward 0, as
 * training sees them. A reward that breaks the reward rule (core/numberRules.ts) throws the rule's sentence.
 */
export function signalReport(
  transcripts: readonly Transcript[],
  successThreshold = DEFAULT_SUCCESS_THRESHOLD,
  /** The arguments of `mtrl reward` that name these rollouts (`--rescore FILE`, `--job NAME`), for the advice to re-score them. */
  rolloutsSource?: string,
): SignalReport {
  // Every reader refuses such rewards (the CLI where it reads): the editor's report reads files and jobs itself.
  const problem = rewardRuleProblem(transcripts);
  if (problem) throw new Error(problem);
  const groups = new Map<string, number[]>();
  const stepUnknown = new Set<string>();
  let failed = 0;
  const all: number[] = [];
  for (const t of transcripts) {
    const reward = trainingReward(t);
    if (reward === undefined) continue;
    if (t.status === 'error' || t.reward === undefined) failed++;
    all.push(reward);
    if (t.step === undefined) stepUnknown.add(t.groupKey);
    const members = groups.get(t.groupKey);
    if (members) members.push(reward);
    else groups.set(t.groupKey, [reward]);
  }
  const sizes = new Map<number, number>();
  for (const g of groups.values()) sizes.set(g.length, (sizes.get(g.length) ?? 0) + 1);
  const groupSize = [...sizes].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0;
  const solvedBy: number[] = Array.from({ length: groupSize + 1 }, () => 0);
  let counted = 0;
  let single = 0;
  let otherSize = 0;
  let unknown = 0;
  let zero = 0;
  let alwaysSolved = 0;
  let neverSolved = 0;
  let samePartialCredit = 0;
  let spread = 0;
  // Each task's rewards as a distribution of distinct values: G draws are all equal with probability Σ q^G.
  const shares: number[][] = [];
  for (const [key, rewards] of groups) {
    if (stepUnknown.has(key)) unknown++;
    const k = rewards.filter((r) => isSolved(r, successThreshold)).length;
    // Counted before single rollouts are set apart: the histogram covers the tasks whose rollouts `solved` counts.
    if (rewards.length === groupSize) solvedBy[k]++;
    else otherSize++;
    if (rewards.length < 2) {
      single++;
      continue;
    }
    counted++;
    shares.push(valueShares(rewards));
    spread += std(rewards);
    if (isZeroAdvantage(rewards)) {
      zero++;
      if (k === rewards.length) alwaysSolved++;
      else if (isPartialCredit(rewards[0])) samePartialCredit++;
      else neverSolved++;
    }
  }
  // With pass/fail rewards this is p^G + (1 − p)^G; partial credit spreads the values and lowers it.
  // No group of two or more: nothing to estimate from.
  const atGroupSize = shares.length
    ? [2, 4, 8, 16].map((g) => ({ groupSize: g, share: shares.reduce((s, q) => s + q.reduce((t, x) => t + x ** g, 0), 0) / shares.length }))
    : [];
  const partial: Omit<SignalReport, 'recommendations' | 'warnings' | 'thinEvidence'> = {
    rollouts: all.length,
    unmatched: transcripts.filter((t) => t.status !== 'skipped' && t.task.rowIndex === undefined && t.task.id === undefined).length,
    failed,
    groups: counted,
    singleRolloutGroups: single,
    stepUnknownGroups: unknown,
    groupSize,
    successThreshold,
    rewards: all.length
      ? {
          mean: all.reduce((s, v) => s + v, 0) / all.length,
          min: all.reduce((m, v) => (v < m ? v : m), Infinity),
          max: all.reduce((m, v) => (v > m ? v : m), -Infinity),
          histogram: histogram(all),
        }
      : null,
    solved: all.filter((r) => isSolved(r, successThreshold)).length,
    solvedBy,
    ...(otherSize ? { tasksOfOtherSize: otherSize } : {}),
    zeroAdvantage: { groups: zero, share: counted ? zero / counted : null, alwaysSolved, neverSolved, samePartialCredit },
    meanWithinGroupSpread: counted ? spread / counted : null,
    atGroupSize,
  };
  const warnings: string[] = [];
  if (counted && thin(partial))
    warnings.push(
      `Thin evidence: ${counted} task${counted === 1 ? '' : 's'} and ${all.length} rollouts (at least ${ENOUGH_TASKS} tasks and ${ENOUGH_ROLLOUTS} rollouts are needed to trust these shares).`,
    );
  const notSeen = resultsNotSeen(transcripts);
  if (notSeen) warnings.push(resultsNotSeenWarning(notSeen));
  // Over the rollouts the report counts (skipped ones are left out, as in training).
  const packVerdicts = packVerdictCounts(transcripts.filter((t) => trainingReward(t) !== undefined));
  const differs = Object.keys(packVerdicts).length ? { packVerdicts } : {};
  return {
    ...partial,
    ...differs,
    ...componentSignal(transcripts),
    warnings,
    thinEvidence: thin(partial),
    recommendations: recommend(partial, rolloutsSource),
  };
}
