import type { ResultsNotSeen } from '../transcript/resultsNotSeen';

/** What-if: a changed reward over rollouts already paid for, against the rewards they were trained on. */

import { isZeroAdvantage } from '../rollouts/verdict';

/** One rollout re-scored: its recorded reward, the reward now, or why it could not be replayed. */
export interface RescoredRollout {
  id: string;
  groupKey: string;
  recorded?: number;
  rescored?: number;
  /** The components the reward returned now, and the metrics the agent reported when it was recorded. */
  components?: Record<string, number>;
  recordedComponents?: Record<string, unknown>;
  /** Why the reward could not score it (an unknown tool, an exception), with the line in the user's file. */
  error?: string;
  line?: number;
}

export interface Flip {
  id: string;
  groupKey: string;
  recorded: number;
  rescored: number;
  /** 1 = best in its group. */
  rankBefore: number;
  rankAfter: number;
  /** The component that changed most from the recorded metrics to the reward now (absent before: its value now). */
  changed?: { name: string; before?: number; after: number };
}

/** The component whose value moved most between the recorded metrics and the reward's components now. */
function changedComponent(r: RescoredRollout): Flip['changed'] {
  let found: Flip['changed'];
  let most = -1;
  for (const [name, after] of Object.entries(r.components ?? {})) {
    const recorded = r.recordedComponents?.[name];
    const before = typeof recorded === 'number' && Number.isFinite(recorded) ? recorded : undefined;
    const moved = Math.abs(after - (before ?? 0));
    if (moved > most) [found, most] = [{ name, ...(before !== undefined ? { before } : {}), after }, moved];
  }
  return found;
}

export interface SignalFigures {
  /** Groups of two or more rollouts whose rewards are all equal: GRPO learns nothing from them. */
  zeroAdvantageGroups: number;
  groups: number;
  /** zeroAdvantageGroups / groups, or null without a group. */
  zeroAdvantageShare: number | null;
  /** Mean over groups of the rewards' standard deviation within the group. */
  meanWithinGroupSpread: number | null;
}

export interface RescoreReport {
  rollouts: number;
  /** Re-scored and with a recorded reward: the rollouts every figure below is computed over. */
  compared: number;
  unreplayable: { id: string; groupKey: string; error: string; line?: number }[];
  /** Rescored but no recorded reward to compare with. */
  unrecorded: number;
  /** Spearman's rank correlation of recorded vs re-scored; null with fewer than two rollouts or a constant side. */
  rankCorrelation: number | null;
  before: SignalFigures;
  after: SignalFigures;
  /** Rollouts whose place in their group moved most, largest move first. */
  flips: Flip[];
  /** Tool calls whose result the rollouts never showed: a reward reading results scores them blind. */
  resultsNotSeen?: ResultsNotSeen;
}

// Equal rewards as GRPO sees them: float noise is not a learning signal.
const EPSILON = 1e-9;

/** Average ranks (1-based), ties sharing the mean of their places. */
function ranks(values: readonly number[], descending = false): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => (descending ? b[0] - a[0] : a[0] - b[0]));
  const result = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && Math.abs(order[j + 1][0] - order[i][0]) <= EPSILON) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) result[order[k][1]] = rank;
    i = j + 1;
  }
  return result;
}

function pearson(a: readonly number[], b: readonly number[]): number | null {
  const n = a.length;
  if (n < 2) return null;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i] / n;
    mb += b[i] / n;
  }
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < n; i++) {
    cov += (a[i] - ma) * (b[i] - mb);
    va += (a[i] - ma) ** 2;
    vb += (b[i] - mb) ** 2;
  }
  return va <= EPSILON || vb <= EPSILON ? null : cov / Math.sqrt(va * vb);
}

/** Spearman's rho: Pearson's correlation of the ranks. */
export function rankCorrelation(a: readonly number[], b: readonly number[]): number | null {
  return pearson(ranks(a), ranks(b));
}

function std(values: readonly number[]): number {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
}

/** Zero-advantage share and spread over groups (two or more members) of the given rewards. */
export function signalFigures(groups: Iterable<readonly number[]>): SignalFigures {
  let counted = 0;
  let zero = 0;
  let spread = 0;
  for (const rewards of groups) {
    if (rewards.length < 2) continue;
    counted++;
    spread += std(rewards);
    if (isZeroAdvantage(rewards)) zero++;
  }
  return {
    zeroAdvantageGroups: zero,
    groups: counted,
    zeroAdvantageShare: counted ? zero / counted : null,
    meanWithinGroupSpread: counted ? spread / counted : null,
  };
}

/** The what-if report: figures over the rollouts that have both rewards; the others counted and listed, never dropped silently. */
export function rescoreReport(rollouts: readonly RescoredRollout[], maxFlips = 10): RescoreReport {
  const unreplayable = rollouts
    .filter((r) => r.rescored === undefined)
    .map((r) => ({ id: r.id, groupKey: r.groupKey, error: r.error ?? 'no reward returned', ...(r.line ? { line: r.line } : {}) }));
  const compared = rollouts.filter(
    (r): r is RescoredRollout & { recorded: number; rescored: number } => r.rescored !== undefined && r.recorded !== undefined,
  );
  const groups = new Map<string, (RescoredRollout & { recorded: number; rescored: number })[]>();
  for (const r of compared) {
    const members = groups.get(r.groupKey);
    if (members) members.push(r);
    else groups.set(r.groupKey, [r]);
  }
  const flips: Flip[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const before = ranks(
      members.map((m) => m.recorded),
      true,
    );
    const after = ranks(
      members.map((m) => m.rescored),
      true,
    );
    members.forEach((m, i) => {
      if (Math.abs(before[i] - after[i]) > EPSILON)
        flips.push({
          id: m.id,
          groupKey: m.groupKey,
          recorded: m.recorded,
          rescored: m.rescored,
          rankBefore: before[i],
          rankAfter: after[i],
          ...(m.components ? { changed: changedComponent(m) } : {}),
        });
    });
  }
  flips.sort((a, b) => Math.abs(b.rankBefore - b.rankAfter) - Math.abs(a.rankBefore - a.rankAfter) || a.id.localeCompare(b.id));
  const members = [...groups.values()];
  return {
    rollouts: rollouts.length,
    compared: compared.length,
    unreplayable,
    unrecorded: rollouts.filter((r) => r.rescored !== undefined && r.recorded === undefined).length,
    rankCorrelation: rankCorrelation(
      compared.map((r) => r.recorded),
      compared.map((r) => r.rescored),
    ),
    before: signalFigures(members.map((m) => m.map((r) => r.recorded))),
    after: signalFigures(members.map((m) => m.map((r) => r.rescored))),
    flips: flips.slice(0, maxFlips),
  };
}
