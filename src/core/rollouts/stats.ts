import type { Transcript } from '../transcript/model';
import type { FactsRows, RolloutFacts } from './facts';
import type { Grouping, RolloutGroup } from './groups';
import { isPartialCredit, type RolloutOutcome } from './verdict';

/** Tool calls over all turns. */
export function toolCallCount(t: Pick<Transcript, 'turns'>): number {
  let n = 0;
  for (const turn of t.turns) n += turn.toolCalls.length;
  return n;
}

/** Moves that counted: the pack's count (Wordle: valid words played), else the tool calls, else the turns of a tool-less agent. */
export function movesOf(t: Transcript): number {
  if (t.env?.moves !== undefined) return t.env.moves;
  return toolCallCount(t) || t.turns.length;
}

/** The rollout's outcome (verdict.ts): `solved` is set by prepareTranscripts at the job's success threshold. */
export function outcomeOf(t: Transcript): RolloutOutcome {
  if (t.solved) return 'solved';
  if (movesOf(t) === 0) return 'no-play';
  return isPartialCredit(t.reward) ? 'partial' : 'lost';
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
export function stepSummaries(rollouts: FactsRows<{ reward?: number }>, grouping: Grouping): { steps: StepSummary[]; unknown: number } {
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
    if (group.zeroAdvantage) s.zeroAdvantageGroups++;
    s.rollouts += group.members.length;
    s.solved += group.solved;
    for (const i of group.members) {
      const r = rollouts.at(i)!.reward;
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
  /** Task × step groups, step-unknown groups included. */
  groups: number;
  /** Of those, the groups whose step is unknown (each pools every step of its task). */
  stepUnknownGroups: number;
  /** Groups with advantage 0 (verdict.ts), step-unknown groups included. */
  zeroAdvantageGroups: number;
  solved: number;
  /** Partial credit: a reward above 0, below the success threshold. */
  partial: number;
  lost: number;
  noPlay: number;
  solveRate: number;
  /** Over rollouts that have a reward; undefined when none has. */
  reward?: { mean: number; min: number; max: number };
  /** Mean moves (movesOf) per rollout that made at least one. */
  meanMoves: number;
  meanTurns: number;
  meanToolCalls: number;
  /** Index n (1–12): rollouts solved in n moves. Index 0 unused. */
  movesToSolve: number[];
  /** Whether a pack defined the moves of any rollout: moves-to-solve means something only then. */
  packMoves: boolean;
  rewardHistogram: Histogram;
}

/** Moves-to-solve counted one by one up to here; a longer solve is not counted in the histogram. */
const MOST_MOVES = 12;

/** Solves by move count, 1 move up to the longest solve (at least 1): a chart's axis ends there, within the game's own limit, not at 12. */
export function solvesByMoves(movesToSolve: readonly number[]): number[] {
  const last = movesToSolve.reduce((most, count, moves) => (count > 0 && moves > most ? moves : most), 1);
  return movesToSolve.slice(1, last + 1);
}

/** What the summary reads of a rollout. */
type Summarized = Pick<RolloutFacts, 'outcome' | 'moves' | 'packMoves' | 'turns' | 'toolCalls' | 'reward'>;

/** Solve rate, mean moves, turns and tool calls, the reward range and the two histograms the board draws. */
export function summarize(rollouts: FactsRows<Summarized>, groups: readonly RolloutGroup[], bins = 20): RolloutSummary {
  const s: RolloutSummary = {
    rollouts: rollouts.length,
    groups: groups.length,
    stepUnknownGroups: groups.filter((g) => g.step === undefined).length,
    zeroAdvantageGroups: groups.filter((g) => g.zeroAdvantage).length,
    solved: 0,
    partial: 0,
    lost: 0,
    noPlay: 0,
    solveRate: 0,
    meanMoves: 0,
    meanTurns: 0,
    meanToolCalls: 0,
    movesToSolve: new Array<number>(MOST_MOVES + 1).fill(0),
    packMoves: false,
    rewardHistogram: { start: 0, width: 1, counts: [] },
  };
  let sum = 0;
  let n = 0;
  let min = Infinity;
  let max = -Infinity;
  let moves = 0;
  let played = 0;
  let turns = 0;
  let calls = 0;
  for (let k = 0; k < rollouts.length; k++) {
    const r = rollouts.at(k)!;
    if (r.packMoves) s.packMoves = true;
    const outcome = r.outcome;
    const g = r.moves;
    turns += r.turns;
    calls += r.toolCalls;
    if (outcome === 'solved') {
      s.solved++;
      if (r.packMoves && g >= 1 && g <= MOST_MOVES) s.movesToSolve[g]++;
    } else if (outcome === 'partial') s.partial++;
    else if (outcome === 'lost') s.lost++;
    else s.noPlay++;
    if (g > 0) {
      moves += g;
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
  s.meanMoves = played ? moves / played : 0;
  s.meanTurns = rollouts.length ? turns / rollouts.length : 0;
  s.meanToolCalls = rollouts.length ? calls / rollouts.length : 0;
  if (n) {
    s.reward = { mean: sum / n, min, max };
    const width = max > min ? (max - min) / bins : 1;
    const counts = new Array<number>(max > min ? bins : 1).fill(0);
    for (let k = 0; k < rollouts.length; k++) {
      const r = rollouts.at(k)!.reward;
      if (r !== undefined) counts[Math.min(counts.length - 1, Math.floor((r - min) / width))]++;
    }
    s.rewardHistogram = { start: min, width, counts };
  }
  return s;
}
