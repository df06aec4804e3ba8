import { outcomeOf, scoredGuesses, type Rollout } from './record';

/** GRPO's advantage of a rollout within its group, as the board states it (the original GRPO form; some `advantage_method`s drop the division). */
export const ADVANTAGE_FORMULA = 'advantage = (reward − group mean) / (group std + 1e-6), population std over the group';
const EPSILON = 1e-6;

/** A GRPO group: the rollouts of one task (same row id, else same answer) in one training step of one job. */
interface RolloutGroup {
  key: string;
  /** The answer when known, else the row id. */
  label: string;
  answer?: string;
  rowId?: string;
  /** The training step; absent when the step is unknown and the group pools every step of the task. */
  step?: number;
  /** Indices into the rollout list. */
  members: number[];
  solved: number;
  /** Mean and population standard deviation of the members' rewards (rollouts without a reward left out). */
  mean: number;
  std: number;
}

interface Grouping {
  groups: RolloutGroup[];
  /** Per rollout: index of its group. */
  groupOf: readonly number[];
  /** Per rollout: GRPO advantage within its group (ADVANTAGE_FORMULA); NaN without a reward. */
  advantage: readonly number[];
}

function groupKey(r: Rollout): string {
  return `${r.job_arn ?? ''}\u0000${r.step ?? '?'}\u0000${r.row_id ?? r.answer ?? '?'}`;
}

/** Groups rollouts by task and step as they arrive, keeping each group's reward spread and each rollout's advantage current. */
export class GroupIndex implements Grouping {
  readonly groups: RolloutGroup[] = [];
  readonly groupOf: number[] = [];
  readonly advantage: number[] = [];
  private readonly byKey = new Map<string, number>();

  /** Adds rollouts that sit at `first`, `first + 1`, … of `all`, and recomputes the groups they joined. */
  add(all: readonly Rollout[], first: number): void {
    const touched = new Set<number>();
    for (let i = first; i < all.length; i++) {
      const r = all[i];
      const key = groupKey(r);
      let index = this.byKey.get(key);
      if (index === undefined) {
        index = this.groups.length;
        this.byKey.set(key, index);
        this.groups.push({
          key,
          label: r.answer ?? r.row_id ?? 'unknown answer',
          answer: r.answer,
          rowId: r.row_id,
          step: r.step,
          members: [],
          solved: 0,
          mean: 0,
          std: 0,
        });
      }
      const group = this.groups[index];
      group.answer ??= r.answer;
      group.members.push(i);
      if (r.solved) group.solved++;
      this.groupOf[i] = index;
      this.advantage[i] = NaN;
      touched.add(index);
    }
    for (const index of touched) this.spread(all, this.groups[index]);
  }

  private spread(all: readonly Rollout[], group: RolloutGroup): void {
    let sum = 0;
    let n = 0;
    for (const i of group.members) {
      const r = all[i].reward;
      if (r !== undefined) {
        sum += r;
        n++;
      }
    }
    group.mean = n ? sum / n : NaN;
    let squares = 0;
    for (const i of group.members) {
      const r = all[i].reward;
      if (r !== undefined) squares += (r - group.mean) ** 2;
    }
    group.std = n ? Math.sqrt(squares / n) : NaN;
    for (const i of group.members) {
      const r = all[i].reward;
      this.advantage[i] = r === undefined ? NaN : (r - group.mean) / (group.std + EPSILON);
    }
  }
}

/** Groups rollouts by task and step, in order of first appearance, with each group's reward spread and each rollout's advantage. */
export function groupRollouts(rollouts: readonly Rollout[]): Grouping {
  const index = new GroupIndex();
  index.add(rollouts, 0);
  return index;
}

/** One training step as the step axis shows it: the same numbers as MLflow's per-step rollout metrics. */
export interface StepSummary {
  step: number;
  rollouts: number;
  solved: number;
  solveRate: number;
  /** Mean of the rewards of the step's rollouts (`rollout/reward/mean`); null when none has a reward. */
  rewardMean: number | null;
  groups: number;
  /** Groups whose rewards are all equal: advantage 0, nothing learned (`analysis/zero_adv_groups`). */
  zeroAdvantageGroups: number;
}

/** Per-step solve rate and mean reward, in step order; rollouts without a step are counted apart. */
export function stepSummaries(rollouts: readonly Rollout[], grouping: Grouping): { steps: StepSummary[]; unknown: number } {
  const byStep = new Map<number, StepSummary & { rewardSum: number; rewarded: number }>();
  let unknown = 0;
  for (const group of grouping.groups) {
    if (group.step === undefined) {
      unknown += group.members.length;
      continue;
    }
    let s = byStep.get(group.step);
    if (!s)
      byStep.set(
        group.step,
        (s = {
          step: group.step,
          rollouts: 0,
          solved: 0,
          solveRate: 0,
          rewardMean: null,
          groups: 0,
          zeroAdvantageGroups: 0,
          rewardSum: 0,
          rewarded: 0,
        }),
      );
    s.groups++;
    if (group.members.length > 1 && group.std === 0) s.zeroAdvantageGroups++;
    s.rollouts += group.members.length;
    s.solved += group.solved;
    for (const i of group.members) {
      const r = rollouts[i].reward;
      if (r !== undefined) {
        s.rewardSum += r;
        s.rewarded++;
      }
    }
  }
  const steps = [...byStep.values()]
    .sort((a, b) => a.step - b.step)
    .map(({ rewardSum, rewarded, ...s }) => ({
      ...s,
      solveRate: s.rollouts ? s.solved / s.rollouts : 0,
      rewardMean: rewarded ? rewardSum / rewarded : null,
    }));
  return { steps, unknown };
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
  const s: RolloutSummary = {
    rollouts: rollouts.length,
    groups: groupCount,
    solved: 0,
    lost: 0,
    noPlay: 0,
    solveRate: 0,
    meanGuesses: 0,
    guessesToSolve: [0, 0, 0, 0, 0, 0, 0],
    rewardHistogram: { start: 0, width: 1, counts: [] },
  };
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
