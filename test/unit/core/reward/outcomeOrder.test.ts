import { strict as assert } from 'node:assert';
import {
  checkExpectations,
  componentsText,
  roundedComponents,
  scenarioSummaryLine,
  type ScoredScenario,
} from '../../../../src/core/reward';

const task = { prompt: 'p' };
const scenario = (name: string, reward: number, extra: Partial<ScoredScenario> = {}): ScoredScenario => ({
  name,
  task,
  turns: [],
  reward,
  ...extra,
});
const parts = (outcome: number, shaping: number) => ({ components: { outcome, shaping } });
const check = (scored: ScoredScenario[], name: 'outcome-decides-order' | 'shaping-is-bounded') => checkExpectations(scored, [], [name])[0];

describe('reward: "the outcome decides the order" and "shaping is bounded"', () => {
  it("the reward's own outcome: a higher outcome must score strictly higher; a tie breaks it and names the lifting component", () => {
    const result = check([scenario('good', 1.0, parts(1, 0)), scenario('bad', 1.0, parts(0, 1))], 'outcome-decides-order');
    assert.equal(result.ok, false);
    assert.equal(result.detail, 'bad: shaping 1.00 lifts an outcome of 0.00 level with good (bad 1.00, good 1.00 with outcome 1.00)');
    assert.deepEqual(result.breaks, [{ scenarios: ['bad', 'good'], detail: result.detail }]);
    assert.equal(check([scenario('good', 1.01, parts(1, 0.01)), scenario('bad', 0.2, parts(0, 0.2))], 'outcome-decides-order').ok, true);
  });

  it("declared outcomes (a pack's solve/loss) apply when the reward returns none; equal outcomes are not compared", () => {
    const scored = [scenario('fast', 1, { outcome: 2 }), scenario('slow', 1.5, { outcome: 1 }), scenario('slow-too', 0.5, { outcome: 1 })];
    const result = check(scored, 'outcome-decides-order');
    assert.equal(result.ok, false);
    assert.deepEqual(
      result.breaks!.map((b) => b.scenarios),
      [['slow', 'fast']],
    );
    assert.match(result.detail, /^slow: an outcome of 1\.00 scores above fast/);
    assert.equal(check(scored, 'shaping-is-bounded'), undefined, 'bounded only where the reward returns an outcome');
    assert.equal(check([scenario('a', 1), scenario('b', 0)], 'outcome-decides-order'), undefined, 'no outcome known');
  });

  it("shaping is bounded: total − outcome under half the distance to the nearest other outcome (the seed's fixed design passes)", () => {
    // outcome 1.05–1.55 by speed, −0.5 a loss, −1.5 no valid guess; w 0.04 on a solve, 0.15 on a loss: the largest shaping.
    const fixed = [
      ...[1, 2, 3, 4, 5, 6].map((n) => scenario(`solve@${n}`, 1.05 + 0.1 * (6 - n) + 0.04, parts(1.05 + 0.1 * (6 - n), 0.04))),
      scenario('loss', -0.35, parts(-0.5, 0.15)),
      scenario('no-play', -1.5, parts(-1.5, 0)),
    ];
    assert.equal(check(fixed, 'shaping-is-bounded').ok, true);
    assert.equal(check(fixed, 'outcome-decides-order').ok, true);
    const loose = [...fixed.slice(0, 5), scenario('solve@6', 1.11, parts(1.05, 0.06))];
    const result = check(loose, 'shaping-is-bounded');
    assert.equal(result.ok, false);
    assert.equal(
      result.detail,
      'solve@6: total − outcome 0.06 is not under 0.05, half the distance from its outcome 1.05 to the nearest other',
    );
  });

  it('the CodeLens line shows the components of the scenarios a broken expectation names', () => {
    const scored = [
      scenario('ideal', 1.3, parts(1, 0.3)),
      scenario('escalated', 0.3, parts(0, 0.3)),
      scenario('stalling', 1.3, parts(-0.5, 1.8)),
    ];
    const results = checkExpectations(scored, [], ['outcome-decides-order']);
    assert.equal(
      scenarioSummaryLine(scored, results),
      'ideal 1.30 · escalated 0.30 = outcome 0.00 + shaping 0.30 · stalling 1.30 = outcome −0.50 + shaping 1.80 · ✗ 0/1',
    );
  });

  it('components read as a sum when they add up to the total, else beside it; --json rounds them to 4 decimals', () => {
    assert.equal(componentsText(1.3, { outcome: -0.5, shaping: 1.8 }), '= outcome −0.50 + shaping 1.80');
    assert.equal(componentsText(1.27, { outcome: 1.25, shaping: 0.46 }), '(outcome 1.25 · shaping 0.46)');
    assert.equal(componentsText(1, undefined), '');
    assert.deepEqual(roundedComponents({ shaping: 0.123456, outcome: -0.5 }), { shaping: 0.1235, outcome: -0.5 });
  });
});
