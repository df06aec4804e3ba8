import { strict as assert } from 'node:assert';
import { checkExpectations, expectationProblem, scenarioSummaryLine, type ScoredScenario } from '../../../../src/core/reward';

const call = (action: string) => ({ toolCalls: [{ name: 'act', arguments: { action } }] });
const scenario = (name: string, reward: number, calls: number, finished?: boolean): ScoredScenario => ({
  name,
  reward,
  finished,
  task: { prompt: 't' },
  turns: Array.from({ length: calls }, (_, i) => call(`a${i}`)),
});

describe('reward scenarios: expectations and generic invariants', () => {
  const good = [scenario('ideal', 1, 4, true), scenario('shortcut', 0.25, 2, false), scenario('gave-up', 0, 0, false)];

  it('checks each comparison with the scores in its sentence, floats compared with a tolerance', () => {
    const results = checkExpectations(good, ['ideal > shortcut', 'ideal == 1.0', 'gave-up < 0', 'shortcut != 0.25'], []);
    assert.deepEqual(
      results.map((r) => [r.name, r.ok]),
      [
        ['ideal > shortcut', true],
        ['ideal == 1.0', true],
        ['gave-up < 0', false],
        ['shortcut != 0.25', false],
      ],
    );
    assert.equal(results[2].detail, 'gave-up 0.00 is not < 0');
    assert.deepEqual(results[0].scenarios, ['ideal', 'shortcut']);
    const sum = [scenario('a', 0.1 + 0.2, 1)];
    assert.ok(checkExpectations(sum, ['a == 0.3'], [])[0].ok);
  });

  it('an expectation that names no scenario of the file, or is not a comparison, is broken with the reason', () => {
    assert.match(expectationProblem('ideal >> x', ['ideal'])!, /not a comparison/);
    assert.match(expectationProblem('ideal > typo', ['ideal'])!, /'typo', which is not a scenario/);
    assert.equal(expectationProblem('ideal >= 0.5', ['ideal']), undefined);
    assert.equal(checkExpectations(good, ['ideal > typo'], [])[0].ok, false);
  });

  it('an expectation naming a scenario the reward failed on is not checked, and says so', () => {
    const [result] = checkExpectations(good.slice(1), ['ideal > shortcut'], [], ['ideal']);
    assert.deepEqual(result, {
      name: 'ideal > shortcut',
      ok: false,
      detail: 'not checked: ideal has no score (the reward failed on it)',
      scenarios: ['ideal'],
    });
  });

  it('the generic invariants hold for a sound reward and name the pair for a shortcut that pays', () => {
    const all = ['finished-beats-unfinished', 'fewer-turns-no-worse', 'nothing-scores-lowest'] as const;
    assert.ok(checkExpectations(good, [], all).every((r) => r.ok));
    const shortcut = [scenario('ideal', 1, 4, true), scenario('shortcut', 1.25, 2, false), scenario('gave-up', 0, 0, false)];
    const broken = checkExpectations(shortcut, [], all).find((r) => r.name === 'finished-beats-unfinished')!;
    assert.equal(broken.ok, false);
    assert.match(broken.detail, /shortcut 1\.25 did not finish the task but scores as much as ideal 1\.00/);
    const slow = [scenario('fast', 0.8, 2, true), scenario('slow', 1, 5, true)];
    assert.match(
      checkExpectations(slow, [], all).find((r) => r.name === 'fewer-turns-no-worse')!.detail,
      /fast finishes in 2 turns but scores 0\.80/,
    );
    const idle = [scenario('nothing', 0.5, 0), scenario('tried', 0.25, 3)];
    assert.equal(checkExpectations(idle, [], all).find((r) => r.name === 'nothing-scores-lowest')!.ok, false);
  });

  it('an invariant the scenarios cannot decide is left out, not counted as kept', () => {
    assert.deepEqual(checkExpectations([scenario('only', 1, 2)], [], ['finished-beats-unfinished', 'nothing-scores-lowest']), []);
  });

  it('the lens line: every scenario score and the expectations kept', () => {
    const results = checkExpectations(good, ['ideal > shortcut', 'ideal == 1.0', 'gave-up < shortcut'], []);
    assert.equal(scenarioSummaryLine(good, results), 'ideal 1.00 \u00b7 shortcut 0.25 \u00b7 gave-up 0.00 \u00b7 \u2713 3/3');
  });
});
