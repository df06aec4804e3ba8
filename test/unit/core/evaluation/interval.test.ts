import { strict as assert } from 'node:assert';
import { differenceInterval, excludesZero, wilsonInterval } from '../../../../src/core/evaluation/interval';

const close = (actual: [number, number], expected: [number, number]) =>
  assert.deepEqual(
    actual.map((x) => x.toFixed(4)),
    expected.map((x) => x.toFixed(4)),
    `${actual} vs ${expected}`,
  );

describe('confidence intervals', () => {
  // Published values: Newcombe (1998), Statistics in Medicine 17, single proportion (Table I, score method) and difference (Table II, method 10).
  it('Wilson interval matches the published score-method values', () => {
    close(wilsonInterval(81, 263), [0.2553, 0.3662]);
    close(wilsonInterval(15, 148), [0.0624, 0.1605]);
    close(wilsonInterval(0, 20), [0, 0.1611]);
    close(wilsonInterval(1, 29), [0.0061, 0.1718]);
  });

  it('difference interval matches the published hybrid score values', () => {
    close(differenceInterval({ successes: 56, trials: 70 }, { successes: 48, trials: 80 }), [0.0524, 0.3339]);
    close(differenceInterval({ successes: 9, trials: 10 }, { successes: 3, trials: 10 }), [0.1705, 0.809]);
    close(differenceInterval({ successes: 6, trials: 7 }, { successes: 2, trials: 7 }), [0.0582, 0.8062]);
    close(differenceInterval({ successes: 5, trials: 56 }, { successes: 0, trials: 29 }), [-0.0381, 0.1926]);
  });

  it('stays inside [0, 1] at the edges and refuses what is not a proportion', () => {
    const [low, high] = wilsonInterval(128, 128);
    assert.ok(low > 0.97 && high === 1);
    assert.throws(() => wilsonInterval(3, 0), /not a proportion/);
    assert.throws(() => wilsonInterval(5, 4), /not a proportion/);
  });

  it("the write-up's 61 % → 84 % on 128 words is more than noise; 61 % → 64 % is not", () => {
    const base = { successes: 78, trials: 128 };
    assert.equal(excludesZero(differenceInterval({ successes: 108, trials: 128 }, base)), true);
    assert.equal(excludesZero(differenceInterval({ successes: 82, trials: 128 }, base)), false);
  });
});
