import type { GenericInvariantName, Scenario } from './scenarioFile';
import type { ExpectationResult, ScoredScenario } from './scored';
import { toolCallsOf, scenarioTranscript } from './scenarioFile';
import { componentsText, score } from './scoreText';
import { outcomeDecidesOrder, shapingIsBounded } from './outcomeOrder';

type Operator = '>' | '>=' | '<' | '<=' | '==' | '!=';
const PATTERN = /^\s*([A-Za-z0-9_@.-]+)\s*(>=|<=|==|!=|>|<)\s*([A-Za-z0-9_@.-]+)\s*$/;
const NUMBER = /^-?\d+(\.\d+)?$/;
// Rewards are floats: 0.1 + 0.2 must equal 0.3.
const EPSILON = 1e-9;

function holds(a: number, op: Operator, b: number): boolean {
  switch (op) {
    case '>':
      return a > b + EPSILON;
    case '>=':
      return a >= b - EPSILON;
    case '<':
      return a < b - EPSILON;
    case '<=':
      return a <= b + EPSILON;
    case '==':
      return Math.abs(a - b) <= EPSILON;
    case '!=':
      return Math.abs(a - b) > EPSILON;
  }
}

/** Why an expectation cannot be checked (bad syntax, an unknown scenario), or undefined when it can. */
export function expectationProblem(text: string, names: readonly string[]): string | undefined {
  const m = PATTERN.exec(text);
  if (!m) return `'${text}' is not a comparison such as "ideal > shortcut" or "gave-up < 0" (operators > >= < <= == !=).`;
  for (const side of [m[1], m[3]])
    if (!NUMBER.test(side) && !names.includes(side)) return `'${text}' names '${side}', which is not a scenario in this file.`;
  if (NUMBER.test(m[1]) && NUMBER.test(m[3])) return `'${text}' compares two numbers; name a scenario.`;
  return undefined;
}

function checkExpectation(text: string, scored: readonly ScoredScenario[], unscored: readonly string[]): ExpectationResult {
  const problem = expectationProblem(text, [...scored.map((s) => s.name), ...unscored]);
  if (problem) return { name: text, ok: false, detail: problem, scenarios: [] };
  const [, left, op, right] = PATTERN.exec(text)!;
  // A scenario the reward failed on has no score to compare: said so, not called unknown.
  const failed = [left, right].filter((side) => unscored.includes(side));
  if (failed.length)
    return {
      name: text,
      ok: false,
      detail: `not checked: ${failed.join(' and ')} ${failed.length > 1 ? 'have' : 'has'} no score (the reward failed on ${failed.length > 1 ? 'them' : 'it'})`,
      scenarios: failed,
    };
  const value = (side: string) => (NUMBER.test(side) ? Number(side) : scored.find((s) => s.name === side)!.reward);
  const shown = (side: string) => (NUMBER.test(side) ? side : `${side} ${score(value(side))}`);
  const ok = holds(value(left), op as Operator, value(right));
  const named = [left, right].filter((s) => !NUMBER.test(s));
  return { name: text, ok, detail: `${shown(left)} ${ok ? '' : 'is not '}${op} ${shown(right)}`.replace(/\s+/g, ' '), scenarios: named };
}

const turnCount = (s: Scenario) => s.turns.length;
/** No tool call and nothing said: the transcript of an agent that did nothing. */
const didNothing = (s: Scenario) => toolCallsOf(scenarioTranscript(s)).length === 0 && s.turns.every((t) => !t.text?.trim());

function finishedBeatsUnfinished(scored: readonly ScoredScenario[]): ExpectationResult | undefined {
  const finished = scored.filter((s) => s.finished === true);
  const unfinished = scored.filter((s) => s.finished === false);
  if (!finished.length || !unfinished.length) return undefined;
  const low = finished.reduce((a, b) => (b.reward < a.reward ? b : a));
  const high = unfinished.reduce((a, b) => (b.reward > a.reward ? b : a));
  const ok = low.reward > high.reward + EPSILON;
  const detail = ok
    ? `the lowest finished (${low.name} ${score(low.reward)}) is above the highest unfinished (${high.name} ${score(high.reward)})`
    : `${high.name} ${score(high.reward)} did not finish the task but scores as much as ${low.name} ${score(low.reward)}, which did`;
  return { name: 'finished-beats-unfinished', ok, detail, scenarios: [low.name, high.name] };
}

function fewerTurnsNoWorse(scored: readonly ScoredScenario[]): ExpectationResult | undefined {
  const finished = scored.filter((s) => s.finished === true);
  if (finished.length < 2) return undefined;
  for (const short of finished)
    for (const long of finished)
      if (turnCount(short) < turnCount(long) && short.reward < long.reward - EPSILON)
        return {
          name: 'fewer-turns-no-worse',
          ok: false,
          detail: `${short.name} finishes in ${turnCount(short)} turns but scores ${score(short.reward)}, below ${long.name} in ${turnCount(long)} turns at ${score(long.reward)}`,
          scenarios: [short.name, long.name],
        };
  return {
    name: 'fewer-turns-no-worse',
    ok: true,
    detail: 'no finished scenario scores below a longer one',
    scenarios: finished.map((s) => s.name),
  };
}

function nothingScoresLowest(scored: readonly ScoredScenario[]): ExpectationResult | undefined {
  const nothing = scored.find(didNothing);
  const others = scored.filter((s) => s !== nothing);
  if (!nothing || !others.length) return undefined;
  const below = others.find((s) => s.reward < nothing.reward - EPSILON || (s.finished === true && s.reward <= nothing.reward + EPSILON));
  if (!below)
    return {
      name: 'nothing-scores-lowest',
      ok: true,
      detail: `${nothing.name} ${score(nothing.reward)} is the lowest score`,
      scenarios: [nothing.name],
    };
  return {
    name: 'nothing-scores-lowest',
    ok: false,
    detail: `${nothing.name} does nothing and scores ${score(nothing.reward)}, not below ${below.name} at ${score(below.reward)}`,
    scenarios: [nothing.name, below.name],
  };
}

const INVARIANTS: Record<GenericInvariantName, (s: readonly ScoredScenario[]) => ExpectationResult | undefined> = {
  'finished-beats-unfinished': finishedBeatsUnfinished,
  'fewer-turns-no-worse': fewerTurnsNoWorse,
  'nothing-scores-lowest': nothingScoresLowest,
  'outcome-decides-order': outcomeDecidesOrder,
  'shaping-is-bounded': shapingIsBounded,
};

/** The file's expectations, then each generic invariant that its scenarios can decide; `unscored`: scenarios the reward failed on. */
export function checkExpectations(
  scored: readonly ScoredScenario[],
  expect: readonly string[],
  invariants: readonly GenericInvariantName[],
  unscored: readonly string[] = [],
): ExpectationResult[] {
  const results = expect.map((e) => checkExpectation(e, scored, unscored));
  for (const name of invariants) {
    const result = INVARIANTS[name](scored);
    if (result) results.push(result);
  }
  return results;
}

/** A scenario's score with its components: `stalling 1.30 = outcome −0.50 + shaping 1.80`. */
export function scenarioScoreText(s: ScoredScenario): string {
  return `${s.name} ${score(s.reward)}${s.components ? ` ${componentsText(s.reward, s.components)}` : ''}`;
}

/**
 * "ideal 1.00 · shortcut 0.75 · gave-up 0.00 · ✓ 3/3": the CodeLens line; the scenarios a broken expectation names show
 * their components (`stalling 1.30 = outcome −0.50 + shaping 1.80`), the others only their score, to keep it one line.
 */
export function scenarioSummaryLine(scored: readonly ScoredScenario[], results: readonly ExpectationResult[]): string {
  const named = new Set(results.filter((r) => !r.ok).flatMap((r) => r.scenarios));
  const parts = scored.map((s) => (named.has(s.name) ? scenarioScoreText(s) : `${s.name} ${score(s.reward)}`));
  if (results.length) {
    const kept = results.filter((r) => r.ok).length;
    parts.push(`${kept === results.length ? '\u2713' : '\u2717'} ${kept}/${results.length}`);
  }
  return parts.join(' \u00b7 ');
}
