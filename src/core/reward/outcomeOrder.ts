import type { ExpectationResult, ScoredScenario } from './scored';
import { score } from './scoreText';

// "The outcome decides the order": a reward whose shaping can lift a worse outcome above a better one teaches the shaping.

// Rewards are floats: equal outcomes within this are one outcome, a total within this of another is a tie.
const EPSILON = 1e-9;
/** Breaking pairs (or scenarios) listed at most, each also in `mtrl reward --json` `failures[]`. */
const MAX_BREAKS = 100;

interface Known {
  scenario: ScoredScenario;
  outcome: number;
}

/**
 * Each scenario's outcome: the reward's own `outcome` component when it returns one (`fromReward`), else the outcome the
 * scenario declares (a pack's solve/loss/no-play). Scenarios without one take no part.
 */
function knownOutcomes(scored: readonly ScoredScenario[]): { known: Known[]; fromReward: boolean } {
  const fromReward = scored.some((s) => s.components?.outcome !== undefined);
  const known = scored.flatMap((scenario) => {
    const outcome = fromReward ? scenario.components?.outcome : scenario.outcome;
    return outcome === undefined ? [] : [{ scenario, outcome }];
  });
  return { known, fromReward };
}

/** The component (not the outcome) by which `low` leads `high` most: what lifts it; undefined when none leads. */
function lifter(low: ScoredScenario, high: ScoredScenario): [string, number] | undefined {
  let found: [string, number] | undefined;
  let lead = EPSILON;
  for (const name of new Set([...Object.keys(low.components ?? {}), ...Object.keys(high.components ?? {})])) {
    const d = (low.components?.[name] ?? 0) - (high.components?.[name] ?? 0);
    if (name !== 'outcome' && d > lead) [found, lead] = [[name, low.components?.[name] ?? 0], d];
  }
  return found;
}

/** "stalling: shaping 1.80 lifts an outcome of −0.50 above escalated (stalling 1.30, escalated 0.30 with outcome 0.00)". */
function breakDetail(low: Known, high: Known): string {
  const [l, h] = [low.scenario, high.scenario];
  const where = Math.abs(l.reward - h.reward) <= EPSILON ? 'level with' : 'above';
  const lift = lifter(l, h);
  const why = lift
    ? `${l.name}: ${lift[0]} ${score(lift[1])} lifts an outcome of ${score(low.outcome)} ${where} ${h.name}`
    : `${l.name}: an outcome of ${score(low.outcome)} scores ${where} ${h.name}`;
  return `${why} (${l.name} ${score(l.reward)}, ${h.name} ${score(h.reward)} with outcome ${score(high.outcome)})`;
}

function summary(name: string, breaks: { detail: string }[]): string {
  const more = breaks.length > 1 ? ` (and ${breaks.length - 1} more${breaks.length >= MAX_BREAKS ? ' at least' : ''})` : '';
  return breaks.length ? `${breaks[0].detail}${more}` : name;
}

/** For any two scenarios with different outcomes, the higher outcome has a strictly higher total; a tie breaks it. */
export function outcomeDecidesOrder(scored: readonly ScoredScenario[]): ExpectationResult | undefined {
  const { known } = knownOutcomes(scored);
  if (new Set(known.map((k) => k.outcome)).size < 2) return undefined;
  const byOutcome = [...known].sort((a, b) => a.outcome - b.outcome);
  const breaks: NonNullable<ExpectationResult['breaks']> = [];
  for (let i = 0; i < byOutcome.length && breaks.length < MAX_BREAKS; i++)
    for (let j = i + 1; j < byOutcome.length && breaks.length < MAX_BREAKS; j++) {
      const [low, high] = [byOutcome[i], byOutcome[j]];
      if (high.outcome - low.outcome > EPSILON && low.scenario.reward >= high.scenario.reward - EPSILON)
        breaks.push({ scenarios: [low.scenario.name, high.scenario.name], detail: breakDetail(low, high) });
    }
  const outcomes = new Set(known.map((k) => k.outcome)).size;
  return {
    name: 'outcome-decides-order',
    ok: !breaks.length,
    detail: summary(`every higher outcome scores higher (${outcomes} outcomes over ${known.length} scenarios)`, breaks),
    scenarios: breaks.length ? breaks[0].scenarios : known.map((k) => k.scenario.name),
    ...(breaks.length ? { breaks } : {}),
  };
}

/**
 * Where the reward returns an `outcome`: each scenario's total − outcome stays under half the distance from its outcome to
 * the nearest different outcome, which keeps the order by construction.
 */
export function shapingIsBounded(scored: readonly ScoredScenario[]): ExpectationResult | undefined {
  const { known, fromReward } = knownOutcomes(scored);
  const outcomes = [...new Set(known.map((k) => k.outcome))];
  if (!fromReward || outcomes.length < 2) return undefined;
  const breaks: NonNullable<ExpectationResult['breaks']> = [];
  for (const { scenario, outcome } of known) {
    const gap = Math.min(...outcomes.filter((o) => Math.abs(o - outcome) > EPSILON).map((o) => Math.abs(o - outcome)));
    const rest = scenario.reward - outcome;
    if (Math.abs(rest) >= gap / 2 - EPSILON && breaks.length < MAX_BREAKS)
      breaks.push({
        scenarios: [scenario.name],
        detail: `${scenario.name}: total \u2212 outcome ${score(rest)} is not under ${score(gap / 2)}, half the distance from its outcome ${score(outcome)} to the nearest other`,
      });
  }
  return {
    name: 'shaping-is-bounded',
    ok: !breaks.length,
    detail: summary(
      `total \u2212 outcome stays under half the distance to the nearest other outcome in all ${known.length} scenarios`,
      breaks,
    ),
    scenarios: breaks.length ? breaks.map((b) => b.scenarios[0]) : known.map((k) => k.scenario.name),
    ...(breaks.length ? { breaks } : {}),
  };
}
