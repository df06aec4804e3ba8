import { outcomeOf, scoredGuesses, type Rollout } from './record';

/** A GRPO group: the rollouts of one task (same row id, else same answer) in one job. */
export interface RolloutGroup {
  key: string;
  /** The answer when known, else the row id. */
  label: string;
  answer?: string;
  rowId?: string;
  /** Indices into the rollout list. */
  members: number[];
  solved: number;
  /** Mean and population standard deviation of the members' rewards (rollouts without a reward left out). */
  mean: number;
  std: number;
}

export interface Grouping {
  groups: RolloutGroup[];
  /** Per rollout: index of its group. */
  groupOf: Int32Array;
  /** Per rollout: (reward − group mean) / group std; 0 when std is 0; NaN without a reward. */
  advantage: Float64Array;
}

export function groupKey(r: Rollout): string {
  return `${r.job_arn ?? ''}\u0000${r.row_id ?? r.answer ?? '?'}`;
}

/** Groups rollouts by task, in order of first appearance, with each group's reward spread and each rollout's advantage. */
export function groupRollouts(rollouts: readonly Rollout[]): Grouping {
  const byKey = new Map<string, number>();
  const groups: RolloutGroup[] = [];
  const groupOf = new Int32Array(rollouts.length);
  rollouts.forEach((r, i) => {
    const key = groupKey(r);
    let index = byKey.get(key);
    if (index === undefined) {
      index = groups.length;
      byKey.set(key, index);
      groups.push({ key, label: r.answer ?? r.row_id ?? 'unknown answer', answer: r.answer, rowId: r.row_id, members: [], solved: 0, mean: 0, std: 0 });
    }
    const group = groups[index];
    group.answer ??= r.answer;
    group.members.push(i);
    if (r.solved) group.solved++;
    groupOf[i] = index;
  });
  const advantage = new Float64Array(rollouts.length).fill(NaN);
  for (const group of groups) {
    const rewards = group.members.map((i) => rollouts[i].reward).filter((r): r is number => r !== undefined);
    group.mean = rewards.length ? rewards.reduce((a, b) => a + b, 0) / rewards.length : NaN;
    group.std = rewards.length ? Math.sqrt(rewards.reduce((a, r) => a + (r - group.mean) ** 2, 0) / rewards.length) : NaN;
    for (const i of group.members) {
      const r = rollouts[i].reward;
      if (r !== undefined) advantage[i] = group.std > 1e-12 ? (r - group.mean) / group.std : 0;
    }
  }
  return { groups, groupOf, advantage };
}

export interface Histogram {
  /** Lower edge of the first bin and the bin width. */
  start: number;
  width: number;
  counts: number[];
}

export interface RolloutSummary {
  rollouts: number;
  groups: number;
  solved: number;
  lost: number;
  noPlay: number;
  solveRate: number;
  /** Over rollouts that have a reward; undefined when none has. */
  reward?: { mean: number; min: number; max: number };
  /** Mean valid guesses per rollout that played at least one. */
  meanGuesses: number;
  /** Index n (1–6): rollouts solved on guess n. Index 0 unused. */
  guessesToSolve: number[];
  rewardHistogram: Histogram;
}

/** Solve rate, mean guesses, the reward range and the two histograms the board draws. */
export function summarize(rollouts: readonly Rollout[], groupCount: number, bins = 20): RolloutSummary {
  const s: RolloutSummary = { rollouts: rollouts.length, groups: groupCount, solved: 0, lost: 0, noPlay: 0, solveRate: 0, meanGuesses: 0, guessesToSolve: [0, 0, 0, 0, 0, 0, 0], rewardHistogram: { start: 0, width: 1, counts: [] } };
  let sum = 0;
  let n = 0;
  let min = Infinity;
  let max = -Infinity;
  let guesses = 0;
  let played = 0;
  for (const r of rollouts) {
    const outcome = outcomeOf(r);
    const g = scoredGuesses(r);
    if (outcome === 'solved') {
      s.solved++;
      if (g >= 1 && g <= 6) s.guessesToSolve[g]++;
    } else if (outcome === 'lost') s.lost++;
    else s.noPlay++;
    if (g > 0) {
      guesses += g;
      played++;
    }
    if (r.reward !== undefined) {
      sum += r.reward;
      n++;
      if (r.reward < min) min = r.reward;
      if (r.reward > max) max = r.reward;
    }
  }
  s.solveRate = rollouts.length ? s.solved / rollouts.length : 0;
  s.meanGuesses = played ? guesses / played : 0;
  if (n) {
    s.reward = { mean: sum / n, min, max };
    const width = max > min ? (max - min) / bins : 1;
    const counts = new Array<number>(max > min ? bins : 1).fill(0);
    for (const r of rollouts) {
      if (r.reward === undefined) continue;
      counts[Math.min(counts.length - 1, Math.floor((r.reward - min) / width))]++;
    }
    s.rewardHistogram = { start: min, width, counts };
  }
  return s;
}
