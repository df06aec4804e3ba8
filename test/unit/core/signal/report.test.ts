import { strict as assert } from 'node:assert';
import { signalReport } from '../../../../src/core/signal/report';
import type { Transcript } from '../../../../src/core/transcript/model';

const rollout = (task: string, i: number, reward: number | undefined, status: Transcript['status'] = 'completed'): Transcript => ({
  id: `${task}-${i}`,
  groupKey: task,
  reward,
  status,
  source: 'trace',
  task: { prompt: task },
  turns: [],
});
/** Tasks given as their rollouts' rewards, G each. */
const batch = (tasks: Record<string, number[]>) => Object.entries(tasks).flatMap(([t, rs]) => rs.map((r, i) => rollout(t, i, r)));

describe('learning signal: the report', () => {
  it('tasks every rollout solves teach nothing: 100 % zero advantage and the advice to drop or harden them', () => {
    const r = signalReport(batch({ a: [1, 1, 1, 1], b: [1, 1, 1, 1], c: [1, 1, 1, 1] }));
    assert.equal(r.groups, 3);
    assert.equal(r.groupSize, 4);
    assert.deepEqual(r.zeroAdvantage, { groups: 3, share: 1, alwaysSolved: 3, neverSolved: 0, samePartialCredit: 0 });
    assert.deepEqual(r.solvedBy, [0, 0, 0, 0, 3]);
    assert.match(r.recommendations[0], /^100 % of tasks are solved by every rollout: they teach nothing/);
  });

  it('a mixed batch: the zero-advantage share and difficulty histogram match a hand count', () => {
    const r = signalReport(
      batch({
        easy: [1, 1, 1, 1],
        hard: [0, 0, 0, 0],
        partial: [0.25, 0.25, 0.25, 0.25],
        split: [1, 0, 1, 0.5],
        one: [0, 0.25, 1, 0.75],
      }),
    );
    // By hand: easy, hard and partial are flat (3 of 5); easy always solved, hard never, partial the same 0.25 for all.
    assert.deepEqual(r.zeroAdvantage, { groups: 3, share: 0.6, alwaysSolved: 1, neverSolved: 1, samePartialCredit: 1 });
    // Solved by k of 4: hard 0, partial 0, one 1, split 2, easy 4.
    assert.deepEqual(r.solvedBy, [2, 1, 1, 0, 1]);
    assert.equal(r.rewards!.min, 0);
    assert.equal(r.rewards!.max, 1);
    assert.ok(r.recommendations.some((s) => /20 % of tasks give every rollout the same partial credit/.test(s)));
  });

  it('estimates the flat share at other group sizes from each task success rate', () => {
    const r = signalReport(batch({ a: [1, 0], b: [1, 1] }));
    // a: p = 0.5 → 2 · 0.5^4 = 0.125 at G=4; b: p = 1 → 1. Mean 0.5625.
    assert.equal(r.atGroupSize.find((g) => g.groupSize === 4)!.share, 0.5625);
  });

  it('failed rollouts count as reward 0 (as training sees them) and are named; skipped ones are left out', () => {
    const r = signalReport([rollout('a', 0, 1), rollout('a', 1, undefined, 'error'), rollout('a', 2, 1, 'skipped')]);
    assert.equal(r.rollouts, 2);
    assert.equal(r.failed, 1);
    assert.deepEqual(r.zeroAdvantage.groups, 0);
    // Never a reward advice when rollouts failed: their 0 is the agent's, not the task's.
    assert.deepEqual(r.recommendations, [
      '1 of 2 rollouts failed: in a job each is a failed trajectory (reward 0), and too many cancel the job. Fix the agent first; advice on tasks and reward needs rollouts that played.',
    ]);
    const allFailed = signalReport(Array.from({ length: 8 }, (_, i) => rollout(`t${i % 4}`, i, undefined, 'error')));
    assert.equal(allFailed.recommendations.length, 1);
    assert.doesNotMatch(allFailed.recommendations[0], /easier tasks|partial credit|group_size/);
  });

  it('partial credit counts in the estimate at other group sizes: values spread over four levels flatten far less than pass/fail', () => {
    // One task scored 0, 0.25, 0.5, 0.75 (never solved): by success alone p = 0 → always flat; by its values Σ q^G = 4 · 0.25^G.
    const r = signalReport(batch({ a: [0, 0.25, 0.5, 0.75] }));
    assert.equal(r.atGroupSize.find((g) => g.groupSize === 2)!.share, 4 * 0.25 ** 2);
    assert.equal(r.atGroupSize.find((g) => g.groupSize === 4)!.share, 4 * 0.25 ** 4);
  });

  it('thin evidence (under 8 tasks or 32 rollouts) says so and never says ready to train', () => {
    const small = signalReport(batch({ a: [1, 0], b: [0, 1], c: [1, 0] }));
    assert.equal(small.thinEvidence, true);
    assert.match(small.warnings![0], /^Thin evidence: 3 tasks and 6 rollouts \(at least 8 tasks and 32 rollouts/);
    assert.ok(
      small.recommendations.every((s) => !/ready to train\./.test(s)),
      small.recommendations.join(' | '),
    );
    const tasks = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`t${i}`, [1, 0, 1, 0]]));
    const enough = signalReport(batch(tasks));
    assert.equal(enough.thinEvidence, false);
    assert.deepEqual(enough.warnings, []);
    assert.match(enough.recommendations[0], /ready to train\.$/);
  });

  it('a reward past the reward rule (1e308, Infinity) is refused with the rule named, not turned into Infinity statistics', () => {
    const huge = { ...rollout('a', 0, 1), reward: 1e308 };
    assert.throws(() => signalReport([huge, rollout('a', 1, 0)]), /a reward must be a finite number from -1e9 to 1e9.*1e\+308/);
    assert.throws(() => signalReport([{ ...rollout('b', 0, 0), reward: Infinity }]), /Infinity/);
    assert.equal(signalReport([{ ...rollout('c', 0, 0), reward: 1e9 }, rollout('c', 1, 0)]).rollouts, 2, 'the bound itself is allowed');
  });

  it('tool calls whose result was not seen are counted in a warning', () => {
    const t = rollout('a', 0, 0);
    t.turns = [{ toolCalls: [{ name: 'close_ticket', arguments: {}, resultNotSeen: true }] }];
    const r = signalReport([t, rollout('a', 1, 1)]);
    assert.ok(r.warnings!.some((w) => /^1 tool call in 1 rollout has no result: .*cannot be trusted/.test(w)));
  });

  it('a success threshold below 1 counts partial credit as success', () => {
    assert.deepEqual(signalReport(batch({ a: [0.75, 0.5] }), 0.7).solvedBy, [0, 1, 0]);
  });

  it('one rollout per task is no group: it says to run several', () => {
    const r = signalReport(batch({ a: [1], b: [0] }));
    assert.match(r.recommendations[0], /at least 2 rollouts per task/);
    assert.deepEqual(r.atGroupSize, [], 'no group to estimate other group sizes from');
    assert.equal(signalReport(batch({ a: [1, 0] })).atGroupSize.length, 4);
  });
});
