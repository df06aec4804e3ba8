import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { evaluationResult } from '../../../../src/core/evaluation/compare';

const real = JSON.parse(readFileSync(path.resolve(__dirname, '../../../fixtures/real-run/comparison_evaluation_metrics.json'), 'utf8')) as {
  base: { metrics: Record<string, number> };
  fine_tuned: { metrics: Record<string, number> };
};

describe('evaluation result from the real MLflow eval/* metrics', () => {
  it('pass@1 with its interval from succeeded / (succeeded + failed) rollouts', () => {
    const base = evaluationResult('base', real.base.metrics)!;
    assert.equal(base.passAt1, 0.578125);
    assert.deepEqual([base.succeeded, base.rollouts], [37, 64]);
    assert.ok(base.interval[0] < 0.578 && 0.578 < base.interval[1]);
    const tuned = evaluationResult('fine-tuned', real.fine_tuned.metrics)!;
    assert.equal(tuned.passAt1, 0.78125);
    assert.equal(
      tuned.rollouts,
      real.fine_tuned.metrics['eval/reward/succeeded_rollouts'] + real.fine_tuned.metrics['eval/reward/failed_rollouts'],
    );
  });
});
