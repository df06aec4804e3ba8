import { outcomeOf, scoredGuesses, type Rollout, type RolloutOutcome } from './record';
import { GroupIndex, stepSummaries, summarize, type RolloutSummary, type StepSummary } from './stats';

/** What the board's filters keep. Empty or absent fields keep everything. */
export interface RolloutFilter {
  outcomes?: RolloutOutcome[];
  minReward?: number;
  maxReward?: number;
  /** Case-insensitive part of the answer, row id or trajectory id. */
  search?: string;
  /** Training steps to show, both ends included; rollouts of unknown step are left out when set. */
  steps?: { from: number; to: number };
}

/** The step axis: per-step summaries, and how many rollouts no evidence dated. */
export interface StepAxis {
  steps: StepSummary[];
  /** Rollouts of unknown step: their groups pool every step of a task, so their advantages are not the policy's. */
  unknown: number;
}

export interface GroupRow {
  index: number;
  label: string;
  answer?: string;
  rowId?: string;
  /** Absent: step unknown, a pooled group. */
  step?: number;
  n: number;
  solved: number;
  mean: number | null;
  std: number | null;
  /** Members that pass the filter. */
  shown: number;
}

export interface RolloutRow {
  index: number;
  trajectoryId: string;
  reward: number | null;
  advantage: number | null;
  guesses: number;
  outcome: RolloutOutcome;
  rebuilt: boolean;
}

export interface RolloutDetail {
  index: number;
  group: number;
  groupLabel: string;
  rollout: Rollout;
  advantage: number | null;
}

const orNull = (n: number | undefined): number | null => (n === undefined || Number.isNaN(n) ? null : n);

/** The rollouts behind one board, answering its page-by-page questions; shared by the extension and the browser demo. */
export class ReplayData {
  private readonly rollouts: Rollout[] = [];
  private grouping = new GroupIndex();
  private axis?: StepAxis;
  private cache?: { key: string; groups: number[]; shown: Map<number, number> };

  constructor(rollouts: readonly Rollout[] = []) {
    this.append(rollouts);
  }

  get size(): number {
    return this.rollouts.length;
  }

  /** Adds rollouts (follow mode, streamed reads) and updates only the groups they join. */
  append(rollouts: readonly Rollout[]): void {
    if (!rollouts.length) return;
    const first = this.rollouts.length;
    for (const r of rollouts) this.rollouts.push(r);
    this.grouping.add(this.rollouts, first);
    this.cache = undefined;
    this.axis = undefined;
  }

  /** Forgets every rollout: the source is read again from the start. */
  clear(): void {
    this.rollouts.length = 0;
    this.grouping = new GroupIndex();
    this.cache = undefined;
    this.axis = undefined;
  }

  steps(): StepAxis {
    return (this.axis ??= stepSummaries(this.rollouts, this.grouping));
  }

  matches(index: number, filter: RolloutFilter): boolean {
    const r = this.rollouts[index];
    if (filter.steps && !(r.step !== undefined && r.step >= filter.steps.from && r.step <= filter.steps.to)) return false;
    if (filter.outcomes?.length && !filter.outcomes.includes(outcomeOf(r))) return false;
    if (filter.minReward !== undefined && !(r.reward !== undefined && r.reward >= filter.minReward)) return false;
    if (filter.maxReward !== undefined && !(r.reward !== undefined && r.reward <= filter.maxReward)) return false;
    const q = filter.search?.trim().toLowerCase();
    if (q && !(r.answer?.includes(q) || r.row_id?.toLowerCase().includes(q) || r.trajectory_id.toLowerCase().includes(q))) return false;
    return true;
  }

  private filtered(filter: RolloutFilter): { groups: number[]; shown: Map<number, number> } {
    const key = JSON.stringify(filter);
    if (this.cache?.key === key) return this.cache;
    const shown = new Map<number, number>();
    const groups: number[] = [];
    const steps = filter.steps;
    this.grouping.groups.forEach((g, gi) => {
      // Whole groups outside the step range are skipped without looking at their members.
      if (steps && (g.step === undefined || g.step < steps.from || g.step > steps.to)) return;
      let count = 0;
      for (const i of g.members) if (this.matches(i, filter)) count++;
      if (count) {
        groups.push(gi);
        shown.set(gi, count);
      }
    });
    this.cache = { key, groups, shown };
    return this.cache;
  }

  groups(filter: RolloutFilter, offset: number, count: number): { total: number; rows: GroupRow[] } {
    const { groups, shown } = this.filtered(filter);
    const rows = groups.slice(Math.max(0, offset), Math.max(0, offset) + Math.max(0, count)).map((gi) => {
      const g = this.grouping.groups[gi];
      return {
        index: gi,
        label: g.label,
        answer: g.answer,
        rowId: g.rowId,
        step: g.step,
        n: g.members.length,
        solved: g.solved,
        mean: orNull(g.mean),
        std: orNull(g.std),
        shown: shown.get(gi) ?? 0,
      };
    });
    return { total: groups.length, rows };
  }

  rolloutsIn(group: number, filter: RolloutFilter): RolloutRow[] {
    const g = this.grouping.groups[group];
    if (!g) return [];
    return g.members
      .filter((i) => this.matches(i, filter))
      .map((i) => {
        const r = this.rollouts[i];
        return {
          index: i,
          trajectoryId: r.trajectory_id,
          reward: orNull(r.reward),
          advantage: orNull(this.grouping.advantage[i]),
          guesses: scoredGuesses(r),
          outcome: outcomeOf(r),
          rebuilt: r.rebuilt === true,
        };
      });
  }

  detail(index: number): RolloutDetail | undefined {
    const rollout = this.rollouts[index];
    if (!rollout) return undefined;
    const group = this.grouping.groupOf[index];
    return { index, group, groupLabel: this.grouping.groups[group].label, rollout, advantage: orNull(this.grouping.advantage[index]) };
  }

  summary(filter: RolloutFilter): RolloutSummary {
    const { groups } = this.filtered(filter);
    const kept = this.rollouts.filter((_, i) => this.matches(i, filter));
    return summarize(kept, groups.length);
  }
}
