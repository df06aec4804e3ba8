import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { evaluationResult, type EvaluationResult } from '../../../../src/core/evaluation/compare';

const real = JSON.parse(readFileSync(path.resolve(__dirname, '../../../fixtures/real-run/comparison_evaluation_metrics.json'), 'utf8')) as {
  base: { metrics: Record<string, number> };
  fine_tuned: { metrics: Record<string, number> };
};

describe('evaluation result from the real MLflow eval/* metrics', () => {
  it('pass@1 with its interval from succeeded / (succeeded + failed) rollouts', () => {
    const base = evaluationResult('base', real.base.metrics) as EvaluationResult;
    assert.equal(base.passAt1, 0.578125);
    assert.deepEqual([base.succeeded, base.rollouts], [37, 64]);
    assert.ok(base.interval[0] < 0.578 && 0.578 < base.interval[1]);
    const tuned = evaluationResult('fine-tuned', real.fine_tuned.metrics) as EvaluationResult;
    assert.equal(tuned.passAt1, 0.78125);
    assert.equal(
      tuned.rollouts,
      real.fine_tuned.metrics['eval/reward/succeeded_rollouts'] + real.fine_tuned.metrics['eval/reward/failed_rollouts'],
    );
  });
});

const metrics = (passAt1: number, rollouts: number, solved?: number) => ({
  'eval/reward/pass_at_1': passAt1,
  'eval/num_trajectories': rollouts,
  ...(solved === undefined ? {} : { 'eval/reward/succeeded_rollouts': solved }),
});

describe('evaluationResult at the boundary', () => {
  it('refuses a pass@1 outside [0, 1]', () => {
    assert.deepEqual(evaluationResult('a', metrics(1.7, 10)), {
      job: 'a',
      reason: 'eval/reward/pass_at_1 is 1.7, not a rate between 0 and 1',
    });
    assert.match((evaluationResult('a', metrics(-0.2, 10)) as { reason: string }).reason, /is -0\.2, not a rate/);
  });

  it('refuses counts that are not non-negative whole numbers', () => {
    for (const rollouts of [12.5, 1e308, -4])
      assert.match(
        (evaluationResult('a', metrics(0.5, rollouts)) as { reason: string }).reason,
        /not a whole number of rollouts/,
        String(rollouts),
      );
    assert.match((evaluationResult('a', metrics(0.5, 10, 11)) as { reason: string }).reason, /11 solved rollouts of 10 played/);
  });

  it('flags a pass@1 that contradicts the counts, and keeps the interval on the counts', () => {
    const r = evaluationResult('a', metrics(0.9, 128, 10)) as EvaluationResult;
    assert.equal(r.succeeded, 10);
    assert.match(r.contradiction ?? '', /reports pass@1 90\.0 % but 10 of 128 rollouts solved \(7\.8 %\)/);
    assert.ok(r.interval[1] < 0.2);
    assert.equal((evaluationResult('b', metrics(10 / 128, 128, 10)) as EvaluationResult).contradiction, undefined);
  });
});
