import { strict as assert } from 'node:assert';
import { rankCorrelation, rescoreReport, rescoreText, signalFigures, type RescoredRollout } from '../../../../src/core/reward';

describe('reward what-if: the re-score report', () => {
  it("Spearman's rho: 1 for the same order, -1 reversed, ties averaged, null for a constant side", () => {
    assert.equal(rankCorrelation([1, 2, 3, 4], [10, 20, 30, 40]), 1);
    assert.equal(rankCorrelation([1, 2, 3, 4], [4, 3, 2, 1]), -1);
    // Ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4): 0.9486832980505138 by hand.
    assert.ok(Math.abs(rankCorrelation([1, 2, 2, 3], [1, 2, 3, 4])! - 0.9486832980505138) < 1e-12);
    assert.equal(rankCorrelation([1, 1, 1], [1, 2, 3]), null);
  });

  it('zero-advantage groups and spread: a group whose rewards are all equal teaches nothing; singletons are not groups', () => {
    const f = signalFigures([[1, 1, 1, 1], [0, 1, 0, 1], [0.5], [0.25, 0.25]]);
    assert.deepEqual(f, { zeroAdvantageGroups: 2, groups: 3, zeroAdvantageShare: 2 / 3, meanWithinGroupSpread: 0.5 / 3 });
  });

  it('compares before and after over the rollouts with both rewards, lists the others, and ranks the biggest flips', () => {
    const r = (
      id: string,
      groupKey: string,
      recorded: number | undefined,
      rescored: number | undefined,
      error?: string,
    ): RescoredRollout => ({
      id,
      groupKey,
      recorded,
      rescored,
      error,
    });
    const report = rescoreReport([
      r('a1', 'A', 1, 1),
      r('a2', 'A', 1, 0),
      r('b1', 'B', 0, 0.5),
      r('b2', 'B', 1, 0.5),
      r('x', 'B', 0.5, undefined, "unknown tool 'frob'"),
      r('u', 'C', undefined, 1),
    ]);
    assert.equal(report.rollouts, 6);
    assert.equal(report.compared, 4);
    assert.deepEqual(report.unreplayable, [{ id: 'x', groupKey: 'B', error: "unknown tool 'frob'" }]);
    assert.equal(report.unrecorded, 1);
    assert.deepEqual([report.before.zeroAdvantageGroups, report.before.groups], [1, 2]);
    assert.deepEqual([report.after.zeroAdvantageGroups, report.after.groups], [1, 2]);
    // In A, a1 and a2 tied (1.5, 1.5) and now a1 leads (1, 2); in B b2 led and now they tie.
    assert.deepEqual(
      report.flips.map((f) => [f.id, f.rankBefore, f.rankAfter]),
      [
        ['a1', 1.5, 1],
        ['a2', 1.5, 2],
        ['b1', 2, 1.5],
        ['b2', 1, 1.5],
      ],
    );
  });

  it('a flip names the component that changed most from the recorded metrics to the reward now', () => {
    const report = rescoreReport([
      {
        id: 'ideal',
        groupKey: 'g',
        recorded: 1.3,
        rescored: 1.3,
        components: { outcome: 1, shaping: 0.3 },
        recordedComponents: { outcome: 1, shaping: 0.3 },
      },
      {
        id: 'stalling',
        groupKey: 'g',
        recorded: 0.1,
        rescored: 1.31,
        components: { outcome: -0.5, shaping: 1.81 },
        recordedComponents: { outcome: -0.5, shaping: 0.6 },
      },
    ]);
    const stalling = report.flips.find((f) => f.id === 'stalling')!;
    assert.deepEqual(stalling.changed, { name: 'shaping', before: 0.6, after: 1.81 });
    assert.match(rescoreText(report, 'run.jsonl', 'r.py reward'), /stalling {2}0\.10 → 1\.31 {2}rank 2 → 1 {2}shaping 0\.60 → 1\.81/);
  });
});
