import { distinctParts } from '../text/distinct';
import { meanComponents } from './components';
import type { Transcript } from '../transcript/model';
import { actionTable, type ActionTable } from './actions';
import { FactsTable, type RolloutFacts } from './facts';
import { FactsKeeper } from './factsKeeper';
import { SavedPlaces } from './savedPlaces';
import type { RolloutMarker } from './marker';
import type { SavedAt } from './pipeline';
import { GroupIndex } from './groups';
import { stepSummaries, summarize, type RolloutSummary, type StepSummary } from './stats';
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
  /** Only the rollouts a scan finding of this kind marks. */
  finding?: string;
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
  /** Mean of each reward component the members' agents reported in their metrics (outcome, shaping), over those that did. */
  components?: Record<string, number>;
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
  /** The scan's kinds that mark it. */
  findings?: string[];
}

export interface RolloutDetail {
  index: number;
  group: number;
  groupLabel: string;
  transcript: Transcript;
  advantage: number | null;
}

const orNull = (n: number | undefined): number | null => (n === undefined || Number.isNaN(n) ? null : n);

/** Reads saved transcripts back from where they lie, readied as the board's pipeline readied them, in the order asked. */
export type ReadBack = (at: readonly SavedAt[]) => Promise<Transcript[]>;

/** One board's rollouts, page by page (extension and browser demo): facts held, turns read back (`ReadBack`) or held whole. */
export class ReplayData {
  private rollouts = new FactsTable();
  private keeper = new FactsKeeper();
  private places = new SavedPlaces();
  private grouping = new GroupIndex();
  private axis?: StepAxis;
  private cache?: { key: string; groups: number[]; shown: Map<number, number> };
  private shortLabels?: string[];

  constructor(
    rollouts: readonly Transcript[] = [],
    private readonly readBack?: ReadBack,
    readonly marker?: RolloutMarker,
  ) {
    this.append(rollouts);
  }

  get size(): number {
    return this.rollouts.length;
  }

  /** Adds rollouts (follow mode, streamed reads) and updates only the groups they join; `savedAt` tells where each can be read again. */
  append(rollouts: readonly Transcript[], savedAt?: (t: Transcript) => SavedAt | undefined): void {
    if (!rollouts.length) return;
    const first = this.rollouts.length;
    const added = rollouts.map((r) => this.keeper.facts(r));
    rollouts.forEach((r, k) => {
      this.marker?.add(r);
      this.rollouts.push(added[k]);
      this.places.add(r, this.readBack ? savedAt?.(r) : undefined);
    });
    this.grouping.add(added, first, this.rollouts);
    this.cache = undefined;
    this.axis = undefined;
    this.shortLabels = undefined;
  }

  /** Forgets every rollout: the source is read again from the start. */
  clear(): void {
    this.rollouts = new FactsTable();
    this.keeper = new FactsKeeper();
    this.places = new SavedPlaces();
    this.grouping = new GroupIndex();
    this.marker?.clear();
    this.cache = undefined;
    this.axis = undefined;
    this.shortLabels = undefined;
  }

  steps(): StepAxis {
    return (this.axis ??= stepSummaries(this.rollouts, this.grouping));
  }

  matches(index: number, filter: RolloutFilter): boolean {
    const r = this.rollouts;
    const step = r.step(index);
    if (filter.steps && !(step !== undefined && step >= filter.steps.from && step <= filter.steps.to)) return false;
    if (filter.outcomes?.length && !filter.outcomes.includes(r.outcome(index))) return false;
    if (filter.finding && !this.marker?.has(filter.finding, index)) return false;
    const reward = r.reward(index);
    if (filter.minReward !== undefined && !(reward !== undefined && reward >= filter.minReward)) return false;
    if (filter.maxReward !== undefined && !(reward !== undefined && reward <= filter.maxReward)) return false;
    const q = filter.search?.trim().toLowerCase();
    if (q && !matchesSearch(r.searched(index), this.grouping.groups[this.grouping.groupOf[index]]?.label, q)) return false;
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
        ...meanComponents(g.members.map((i) => this.rollouts.at(i)?.metrics)),
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
        const r = this.rollouts.at(i)!;
        const findings = this.marker?.kindsOf(i);
        return {
          index: i,
          trajectoryId: this.rollouts.id(i),
          reward: orNull(r.reward),
          advantage: orNull(this.grouping.advantage[i]),
          turns: r.turns,
          toolCalls: r.toolCalls,
          moves: r.moves,
          outcome: r.outcome,
          status: r.status,
          rebuilt: r.rebuilt,
          ...(r.metrics ? { metrics: r.metrics } : {}),
          ...(findings?.length ? { findings } : {}),
        };
      });
  }

  /** Plain copies of the rollouts the filter keeps (the steps shown), for work outside the board such as re-scoring. */
  async shown(filter: RolloutFilter): Promise<Transcript[]> {
    const kept: number[] = [];
    for (let i = 0; i < this.rollouts.length; i++) if (this.matches(i, filter)) kept.push(i);
    return this.whole(kept);
  }

  async detail(index: number): Promise<RolloutDetail | undefined> {
    if (!this.rollouts.at(index)) return undefined;
    const [transcript] = await this.whole([index]);
    const group = this.grouping.groupOf[index];
    return {
      index,
      group,
      groupLabel: this.grouping.groups[group].label,
      transcript,
      advantage: orNull(this.grouping.advantage[index]),
    };
  }

  /** The rollouts at these indices whole, as plain copies: those held are copied, the others read back from their files. */
  private async whole(indices: readonly number[]): Promise<Transcript[]> {
    const out: Transcript[] = new Array<Transcript>(indices.length);
    const saved: number[] = [];
    indices.forEach((index, k) => {
      const held = this.places.whole(index);
      // A plain copy: spans decode their text on first read, and a message carries data, not getters.
      if (held) out[k] = JSON.parse(JSON.stringify(held)) as Transcript;
      else saved.push(k);
    });
    if (!saved.length) return out;
    const { rollouts, places } = this;
    const read = await this.readBack!(saved.map((k) => places.at(indices[k])));
    saved.forEach((k, n) => {
      const want = rollouts.id(indices[k]);
      if (read[n]?.id !== want) {
        const at = places.at(indices[k]);
        throw new Error(`${at.file} changed since the board read it (rollout ${want} is no longer at byte ${at.offset}): open it again.`);
      }
      out[k] = read[n];
    });
    return out;
  }

  summary(filter: RolloutFilter): RolloutSummary {
    const { groups } = this.filtered(filter);
    const kept: number[] = [];
    for (let i = 0; i < this.rollouts.length; i++) if (this.matches(i, filter)) kept.push(i);
    return summarize(
      { length: kept.length, at: (k) => this.rollouts.at(kept[k]) },
      groups.map((gi) => this.grouping.groups[gi]),
    );
  }

  /** The action table for what the filter shows (the steps picked): each rollout against its own group's mean. */
  actions(filter: RolloutFilter): ActionTable {
    const { groups } = this.filtered(filter);
    const members = groups.flatMap((gi) => this.grouping.groups[gi].members.filter((i) => this.matches(i, filter)));
    return actionTable(this.rollouts, this.keeper.actions, this.grouping.advantage, members);
  }
}

function matchesSearch(r: Pick<RolloutFacts, 'id' | 'prompt' | 'taskId'>, label: string | undefined, q: string): boolean {
  return (
    !!label?.toLowerCase().includes(q) ||
    !!r.taskId?.toLowerCase().includes(q) ||
    r.id.toLowerCase().includes(q) ||
    r.prompt.toLowerCase().includes(q)
  );
}
