import type { TranscriptStatus } from '../transcript/model';
import { RolloutIds } from './traceIds';
import type { RolloutOutcome } from './verdict';

/**
 * What the board's rows, filters, groups, summary and action table read of a rollout, without its turns: a million
 * rollouts' turns do not fit in the extension host, their facts do. Each repeated text (a prompt, a label) is held once.
 */
export interface RolloutFacts {
  id: string;
  groupKey: string;
  /** taskLabel: the group's label when this rollout opens a group. */
  label: string;
  pack: string | undefined;
  /** The task's prompt and row id: what the board's search reads. */
  prompt: string;
  taskId: string | undefined;
  step: number | undefined;
  reward: number | undefined;
  status: TranscriptStatus;
  solved: boolean;
  outcome: RolloutOutcome;
  moves: number;
  /** A pack counted the moves (`env.moves`): moves-to-solve means something only then. */
  packMoves: boolean;
  turns: number;
  toolCalls: number;
  rebuilt: boolean;
  metrics: Record<string, unknown> | undefined;
  /** Its distinct (tool, argument, value) keys, as indices into the keeper's `actions`; equal lists shared. */
  actions: readonly number[];
}

/** Rollouts by index: an array of facts, or the board's columns (FactsTable). */
export interface FactsRows<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/** What the board keeps of each rollout; the group's own facts (key, label, pack) are its group's. */
export type HeldFacts = Omit<RolloutFacts, 'groupKey' | 'label' | 'pack'>;
/** A row read back without its id (FactsTable.id): every scan over the rows reads a reward or a count, none an id. */
export type RowFacts = Omit<HeldFacts, 'id'>;

const STATUSES: readonly TranscriptStatus[] = ['completed', 'error', 'skipped'];
const OUTCOMES: readonly RolloutOutcome[] = ['solved', 'partial', 'lost', 'no-play'];
const SOLVED = 1;
const PACK_MOVES = 2;
const REBUILT = 4;

/**
 * The facts of many rollouts in columns: numbers in typed arrays, texts and action lists as references to the one copy
 * each. With an object per rollout a million held 382 MB live and the host's heap, grown ahead of it, passed 1 GB;
 * in columns they hold 209 MB with their groups (docs/scale.md).
 */
export class FactsTable implements FactsRows<RowFacts> {
  private count = 0;
  private readonly ids = new RolloutIds();
  private readonly prompts: string[] = [];
  private readonly taskIds: (string | undefined)[] = [];
  private readonly actionLists: (readonly number[])[] = [];
  private readonly metrics = new Map<number, Record<string, unknown>>();
  /** reward, step (NaN: none); moves, turns, tool calls; status, outcome, flags. */
  private numbers = new Float64Array(0);
  private counts = new Int32Array(0);
  private kinds = new Uint8Array(0);

  get length(): number {
    return this.count;
  }

  push(f: HeldFacts): void {
    const i = this.count++;
    if (this.kinds.length < 3 * this.count) this.grow();
    this.ids.push(f.id);
    this.prompts.push(f.prompt);
    this.taskIds.push(f.taskId);
    this.actionLists.push(f.actions);
    if (f.metrics) this.metrics.set(i, f.metrics);
    this.numbers[2 * i] = f.reward ?? NaN;
    this.numbers[2 * i + 1] = f.step ?? NaN;
    this.counts[3 * i] = f.moves;
    this.counts[3 * i + 1] = f.turns;
    this.counts[3 * i + 2] = f.toolCalls;
    this.kinds[3 * i] = STATUSES.indexOf(f.status);
    this.kinds[3 * i + 1] = OUTCOMES.indexOf(f.outcome);
    this.kinds[3 * i + 2] = (f.solved ? SOLVED : 0) | (f.packMoves ? PACK_MOVES : 0) | (f.rebuilt ? REBUILT : 0);
  }

  private grow(): void {
    const rows = Math.max(1024, 2 * this.count);
    const numbers = new Float64Array(2 * rows);
    numbers.set(this.numbers);
    this.numbers = numbers;
    const counts = new Int32Array(3 * rows);
    counts.set(this.counts);
    this.counts = counts;
    const kinds = new Uint8Array(3 * rows);
    kinds.set(this.kinds);
    this.kinds = kinds;
  }

  id(i: number): string {
    return this.ids.at(i);
  }
  reward(i: number): number | undefined {
    const r = this.numbers[2 * i];
    return Number.isNaN(r) ? undefined : r;
  }
  step(i: number): number | undefined {
    const s = this.numbers[2 * i + 1];
    return Number.isNaN(s) ? undefined : s;
  }
  outcome(i: number): RolloutOutcome {
    return OUTCOMES[this.kinds[3 * i + 1]];
  }
  /** What the board's search reads besides the group's label. */
  searched(i: number): { id: string; prompt: string; taskId: string | undefined } {
    return { id: this.ids.at(i), prompt: this.prompts[i], taskId: this.taskIds[i] };
  }

  at(i: number): RowFacts | undefined {
    if (i < 0 || i >= this.count) return undefined;
    const flags = this.kinds[3 * i + 2];
    return {
      prompt: this.prompts[i],
      taskId: this.taskIds[i],
      step: this.step(i),
      reward: this.reward(i),
      status: STATUSES[this.kinds[3 * i]],
      solved: (flags & SOLVED) !== 0,
      outcome: this.outcome(i),
      moves: this.counts[3 * i],
      packMoves: (flags & PACK_MOVES) !== 0,
      turns: this.counts[3 * i + 1],
      toolCalls: this.counts[3 * i + 2],
      rebuilt: (flags & REBUILT) !== 0,
      metrics: this.metrics.get(i),
      actions: this.actionLists[i],
    };
  }
}

/** Each distinct text once (a prompt repeated across a group, a label): `summaryKeeper` and the board's facts hold texts this way. */
export function heldOnce(): (text: string) => string {
  const texts = new Map<string, string>();
  return (text) => {
    const known = texts.get(text);
    if (known !== undefined) return known;
    texts.set(text, text);
    return text;
  };
}
