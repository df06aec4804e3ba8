import { strict as assert } from 'node:assert';
import { checkExpectations, parseScenarioFile, toolCallsOf } from '../../../../../src/core/reward';
import { referenceOutcome, referenceReward } from '../../../../../src/core/environments/wordle/referenceReward';
import { wordleRewardScenarios } from '../../../../../src/core/environments/wordle/rewardScenarios';

const play = (...guesses: string[]) =>
  referenceReward(
    'crane',
    guesses.map((guess) => ({ guess })),
  );

describe('reward: the reference design in TypeScript', () => {
  it('has the published outcome table', () => {
    assert.deepEqual(
      [1, 3, 6].map((n) => referenceOutcome(n, n).outcome),
      [1.55, 1.35, 1.05],
    );
    assert.deepEqual(referenceOutcome(undefined, 6), { outcome: -0.5, weight: 0.15 });
    assert.deepEqual(referenceOutcome(undefined, 0), { outcome: -1.5, weight: 0 });
  });

  it('scores a first-guess solve 1.55 plus 0.04 of its shaping', () => {
    const r = play('crane');
    assert.equal(r.solved, true);
    assert.equal(r.outcome, 1.55);
    // valid 15 − time 1 + five new letters 10 + information capped at 15 = 39 points.
    assert.equal(r.shaping, 39 / 150);
    assert.ok(Math.abs(r.reward - (1.55 + 0.04 * (39 / 150))) < 1e-12);
  });

  it('penalises repeats, invalid input, raw text and contradictions; ignores input after the solve', () => {
    const clean = play('slate', 'crane');
    assert.ok(play('slate', 'slate', 'crane').shaping < clean.shaping);
    assert.ok(play('slate', 'xx', 'crane').shaping < clean.shaping);
    assert.ok(referenceReward('crane', [{ guess: 'slate' }, { guess: 'crane', source: 'text' }]).shaping < clean.shaping);
    // After SLATE (A and E green), PUPPY drops both greens.
    assert.ok(play('slate', 'puppy', 'crane').shaping < play('slate', 'grace', 'crane').shaping);
    assert.deepEqual(play('crane', 'slate'), play('crane'));
  });

  it('never playing scores −1.5 whatever was typed, and a long loss stays negative', () => {
    assert.equal(play('xx', '12345', 'toolong').reward, -1.5);
    const loss = play('slate', 'grace', 'trace', 'brace', 'space', 'place');
    assert.equal(loss.solved, false);
    assert.ok(loss.reward < 0 && loss.reward >= -0.65);
  });

  it("keeps every expectation of the pack's scenarios", () => {
    const offered = wordleRewardScenarios('class WordleGame:\n    def guess(self, w): ...\n    def final_reward(self): ...\n', 'r.py');
    const file = parseScenarioFile(JSON.stringify(offered)).file!;
    const scored = file.scenarios.map((s) => ({
      ...s,
      reward: referenceReward(
        'crane',
        toolCallsOf(s).map((c) => ({ guess: (c.arguments as { guess: string }).guess })),
      ).reward,
    }));
    assert.deepEqual(
      checkExpectations(scored, file.expect, file.invariants).filter((r) => !r.ok),
      [],
    );
  });
});
