import type { FactsRows, RolloutFacts } from './facts';
import { isZeroAdvantageGroup } from './verdict';

// GRPO groups: the rollouts of one task in one step, each group's reward spread and each rollout's advantage.

/** GRPO's advantage of a rollout within its group, as the board states it (the original GRPO form; some `advantage_method`s drop the division). */
export const ADVANTAGE_FORMULA = 'advantage = (reward − group mean) / (group std + 1e-6), population std over the group';
const EPSILON = 1e-6;

/** A GRPO group: the rollouts of one task (`Transcript.groupKey`) in one training step of one job. */
export interface RolloutGroup {
  key: string;
  /** The task in a few words (taskLabel). */
  label: string;
  /** The pack of its first rollout, when one recognized it. */
  pack?: string;
  /** The training step; absent when the step is unknown and the group pools every step of the task. */
  step?: number;
  /** Indices into the rollout list. */
  members: number[];
  solved: number;
  /** Two or more rollouts and every reward equal (verdict.ts): advantage 0. */
  zeroAdvantage: boolean;
  /** Mean and population standard deviation of the members' rewards (rollouts without a reward left out). */
  mean: number;
  std: number;
}

export interface Grouping {
  groups: RolloutGroup[];
  /** Per rollout: index of its group. */
  groupOf: readonly number[];
  /** Per rollout: GRPO advantage within its group (ADVANTAGE_FORMULA); NaN without a reward. */
  advantage: readonly number[];
}

/** What grouping reads of a rollout as it joins, and of every member when a group's spread is computed again. */
type GroupMember = Pick<RolloutFacts, 'groupKey' | 'label' | 'pack' | 'step' | 'solved' | 'reward' | 'status'>;
type Spread = Pick<RolloutFacts, 'reward' | 'status'>;

/** Groups rollouts by task and step as they arrive, keeping each group's reward spread and each rollout's advantage current. */
export class GroupIndex implements Grouping {
  readonly groups: RolloutGroup[] = [];
  readonly groupOf: number[] = [];
  readonly advantage: number[] = [];
  private readonly byKey = new Map<string, number>();

  /** Adds rollouts that sit at `first`, `first + 1`, … of `all` (already in it), and recomputes the groups they joined. */
  add(added: readonly GroupMember[], first: number, all: FactsRows<Spread>): void {
    const touched = new Set<number>();
    for (let i = first; i < first + added.length; i++) touched.add(this.join(added[i - first], i));
    for (const index of touched) this.spread(all, this.groups[index]);
  }

  /** Puts the rollout at `i` of the list in its group, its spread left for spreadAll: a tally joins 100,000 one by one. */
  join(r: GroupMember, i: number): number {
    const key = r.groupKey;
    let index = this.byKey.get(key);
    if (index === undefined) {
      index = this.groups.length;
      this.byKey.set(key, index);
      this.groups.push({
        key,
        label: r.label,
        pack: r.pack,
        step: r.step,
        members: [],
        solved: 0,
        zeroAdvantage: false,
        mean: 0,
        std: 0,
      });
    }
    const group = this.groups[index];
    group.members.push(i);
    if (r.solved) group.solved++;
    this.groupOf[i] = index;
    this.advantage[i] = NaN;
    return index;
  }

  /** Every group's reward spread and its members' advantages, computed again. */
  spreadAll(all: FactsRows<Spread>): void {
    for (const group of this.groups) this.spread(all, group);
  }

  private spread(all: FactsRows<Spread>, group: RolloutGroup): void {
    const members = group.members.map((i) => all.at(i)!);
    let sum = 0;
    let n = 0;
    for (const { reward: r } of members) {
      if (r !== undefined) {
        sum += r;
        n++;
      }
    }
    group.mean = n ? sum / n : NaN;
    let squares = 0;
    for (const { reward: r } of members) if (r !== undefined) squares += (r - group.mean) ** 2;
    group.std = n ? Math.sqrt(squares / n) : NaN;
    group.zeroAdvantage = isZeroAdvantageGroup(members);
    group.members.forEach((i, k) => {
      const r = members[k].reward;
      this.advantage[i] = r === undefined ? NaN : (r - group.mean) / (group.std + EPSILON);
    });
  }
}

/** Groups rollouts by task and step, in order of first appearance, with each group's reward spread and each rollout's advantage. */
export function groupRollouts(rollouts: readonly GroupMember[]): Grouping {
  const index = new GroupIndex();
  index.add(rollouts, 0, rollouts);
  return index;
}
