import { distinctParts } from '../text/distinct';
import type { Transcript } from '../transcript/model';
import { actionTable, type ActionTable } from './actions';
import { GroupIndex, movesOf, outcomeOf, stepSummaries, summarize, toolCallCount, type RolloutSummary, type StepSummary } from './stats';
import type { RolloutOutcome } from './verdict';

/** What the board's filters keep. Empty or absent fields keep everything. */
export interface RolloutFilter {
  outcomes?: RolloutOutcome[];
  minReward?: number;
  maxReward?: number;
  /** Case-insensitive part of the task's label or prompt, its row id, or the trajectory id. */
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
  /** The task in a few words: the pack's label (Wordle: the answer), else the first line of its prompt. */
  label: string;
  /** The part of the label that tells it from the other groups' (tasks from one template share their first words). */
  short: string;
  /** The pack that recognized the group's rollouts: the board picks its renderer by it. */
  pack?: string;
  /** Absent: step unknown, a pooled group. */
  step?: number;
  n: number;
  solved: number;
  /** Every reward equal (verdict.ts): advantage 0. */
  zeroAdvantage: boolean;
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
  turns: number;
  toolCalls: number;
  /** Moves that counted (the pack's count, else the tool calls). */
  moves: number;
  outcome: RolloutOutcome;
  status: Transcript['status'];
  rebuilt: boolean;
  /** The result's `metrics` object: optional columns. */
  metrics?: Record<string, unknown>;
}

export interface RolloutDetail {
  index: number;
  group: number;
  groupLabel: string;
  transcript: Transcript;
  advantage: number | null;
}

const orNull = (n: number | undefined): number | null => (n === undefined || Number.isNaN(n) ? null : n);

/** The rollouts behind one board, answering its page-by-page questions; shared by the extension and the browser demo. */
export class ReplayData {
  private readonly rollouts: Transcript[] = [];
  private grouping = new GroupIndex();
  private axis?: StepAxis;
  private cache?: { key: string; groups: number[]; shown: Map<number, number> };
  private shortLabels?: string[];

  constructor(rollouts: readonly Transcript[] = []) {
    this.append(rollouts);
  }

  get size(): number {
    return this.rollouts.length;
  }

  /** Adds rollouts (follow mode, streamed reads) and updates only the groups they join. */
  append(rollouts: readonly Transcript[]): void {
    if (!rollouts.length) return;
    const first = this.rollouts.length;
    for (const r of rollouts) this.rollouts.push(r);
    this.grouping.add(this.rollouts, first);
    this.cache = undefined;
    this.axis = undefined;
    this.shortLabels = undefined;
  }

  /** Forgets every rollout: the source is read again from the start. */
  clear(): void {
    this.rollouts.length = 0;
    this.grouping = new GroupIndex();
    this.cache = undefined;
    this.axis = undefined;
    this.shortLabels = undefined;
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
    if (q && !matchesSearch(r, this.grouping.groups[this.grouping.groupOf[index]]?.label, q)) return false;
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
    const short = this.short();
    const rows = groups.slice(Math.max(0, offset), Math.max(0, offset) + Math.max(0, count)).map((gi) => {
      const g = this.grouping.groups[gi];
      return {
        index: gi,
        label: g.label,
        short: short[gi],
        pack: g.pack,
        step: g.step,
        n: g.members.length,
        solved: g.solved,
        zeroAdvantage: g.zeroAdvantage,
        mean: orNull(g.mean),
        std: orNull(g.std),
        shown: shown.get(gi) ?? 0,
      };
    });
    return { total: groups.length, rows };
  }

  /** Every group's distinct part of its label, as the Jobs view cuts job names (cut after a word's space). */
  private short(): string[] {
    return (this.shortLabels ??= distinctParts(
      this.grouping.groups.map((g) => g.label),
      ' ',
    ).map(({ rest, cut }) => (cut ? `…${rest}` : rest)));
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
          trajectoryId: r.id,
          reward: orNull(r.reward),
          advantage: orNull(this.grouping.advantage[i]),
          turns: r.turns.length,
          toolCalls: toolCallCount(r),
          moves: movesOf(r),
          outcome: outcomeOf(r),
          status: r.status,
          rebuilt: r.rebuilt === true,
          ...(r.metrics ? { metrics: r.metrics } : {}),
        };
      });
  }

  /** Plain copies of the rollouts the filter keeps (the steps shown), for work outside the board such as re-scoring. */
  shown(filter: RolloutFilter): Transcript[] {
    const kept: Transcript[] = [];
    for (let i = 0; i < this.rollouts.length; i++)
      if (this.matches(i, filter)) kept.push(JSON.parse(JSON.stringify(this.rollouts[i])) as Transcript);
    return kept;
  }

  detail(index: number): RolloutDetail | undefined {
    const rollout = this.rollouts[index];
    if (!rollout) return undefined;
    const group = this.grouping.groupOf[index];
    return {
      index,
      group,
      groupLabel: this.grouping.groups[group].label,
      // A plain copy: spans decode their text on first read, and a message carries data, not getters.
      transcript: JSON.parse(JSON.stringify(rollout)) as Transcript,
      advantage: orNull(this.grouping.advantage[index]),
    };
  }

  summary(filter: RolloutFilter): RolloutSummary {
    const { groups } = this.filtered(filter);
    const kept = this.rollouts.filter((_, i) => this.matches(i, filter));
    return summarize(
      kept,
      groups.map((gi) => this.grouping.groups[gi]),
    );
  }

  /** The action table for what the filter shows (the steps picked): each rollout against its own group's mean. */
  actions(filter: RolloutFilter): ActionTable {
    const { groups } = this.filtered(filter);
    const members = groups.flatMap((gi) => this.grouping.groups[gi].members.filter((i) => this.matches(i, filter)));
    return actionTable(this.rollouts, this.grouping.advantage, members);
  }
}

function matchesSearch(t: Transcript, label: string | undefined, q: string): boolean {
  return (
    !!label?.toLowerCase().includes(q) ||
    !!t.task.id?.toLowerCase().includes(q) ||
    t.id.toLowerCase().includes(q) ||
    t.task.prompt.toLowerCase().includes(q)
  );
}
