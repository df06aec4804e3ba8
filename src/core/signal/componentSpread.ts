import { numericComponents } from '../rollouts/components';
import { isZeroAdvantage, trainingReward } from '../rollouts/verdict';
import type { Transcript } from '../transcript/model';

/** How much one reward component varies inside a task's group: where GRPO's advantage comes from, part by part. */
export interface ComponentSpread {
  name: string;
  /** Groups of two or more rollouts that all report it. */
  groups: number;
  /** Mean standard deviation of the component inside a group. */
  meanWithinGroupSpread: number;
  /** Share of those groups where every rollout has the same value. */
  flatShare: number;
}

export interface ComponentSignal {
  components: ComponentSpread[];
  /** Groups where every rollout has the same `outcome` but the totals differ: only the other components separate them. */
  outcomeTiedGroups: number;
}

function std(values: readonly number[]): number {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
}

/** The spread of each component the agents reported (their `metrics`), over the groups the signal report compares. */
export function componentSignal(transcripts: readonly Transcript[]): ComponentSignal | undefined {
  const groups = new Map<string, { total: number; parts: Record<string, number> }[]>();
  for (const t of transcripts) {
    const total = trainingReward(t);
    if (total === undefined) continue;
    const member = { total, parts: numericComponents(t.metrics) };
    const members = groups.get(t.groupKey);
    if (members) members.push(member);
    else groups.set(t.groupKey, [member]);
  }
  const sums = new Map<string, { groups: number; spread: number; flat: number }>();
  let outcomeTiedGroups = 0;
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const names = new Set(members.flatMap((m) => Object.keys(m.parts)));
    for (const name of names) {
      // A component some members lack is not compared: its spread would mix reported and missing values.
      if (!members.every((m) => name in m.parts)) continue;
      const values = members.map((m) => m.parts[name]);
      const sum = sums.get(name) ?? { groups: 0, spread: 0, flat: 0 };
      sum.groups++;
      sum.spread += std(values);
      if (isZeroAdvantage(values)) {
        sum.flat++;
        if (name === 'outcome' && !isZeroAdvantage(members.map((m) => m.total))) outcomeTiedGroups++;
      }
      sums.set(name, sum);
    }
  }
  if (!sums.size) return undefined;
  const components = [...sums].map(([name, s]) => ({
    name,
    groups: s.groups,
    meanWithinGroupSpread: s.spread / s.groups,
    flatShare: s.flat / s.groups,
  }));
  return { components, outcomeTiedGroups };
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

/** One line per component, for the terminal: `outcome 0.520 (flat in 40 % of 10 tasks)`. */
export function componentSpreadLines(signal: Partial<ComponentSignal>): string[] {
  return (signal.components ?? []).map(
    (c) => `${c.name} ${c.meanWithinGroupSpread.toFixed(3)} (flat in ${pct(c.flatShare)} of ${c.groups} task${c.groups === 1 ? '' : 's'})`,
  );
}

/** What the outcome ties mean, when there are any: the shaping alone decides those groups' advantages. */
export function outcomeTiedSentence(signal: Partial<ComponentSignal>, groups: number): string | undefined {
  const n = signal.outcomeTiedGroups;
  if (!n) return undefined;
  const others = (signal.components ?? []).filter((c) => c.name !== 'outcome').map((c) => c.name);
  return `In ${n} of ${groups} tasks every rollout has the same outcome and only ${others.join(', ') || 'the rest of the reward'} separate${others.length === 1 ? 's' : ''} them: GRPO learns from that alone there.`;
}
