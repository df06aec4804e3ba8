import assert from 'node:assert/strict';
import { checkHealth } from '../../../../src/core/health/check';
import { admittedSeries, healthInputOf } from '../../../../src/core/health/input';
import type { JobDetails } from '../../../../src/core/jobs/job';
import type { MetricPoint } from '../../../../src/core/metrics/mlflow';

const KEY = 'analysis/batch_valid_ratio';
const point = (step: unknown, value: unknown) => ({ key: KEY, step, value, timestamp: 0 }) as unknown as MetricPoint;

describe('health: metric points are checked where they enter', () => {
  it('leaves out strings ("Infinity", "NaN"), non-finite and huge values, and steps that are negative, fractional or past 1,000,000, naming the first', () => {
    const bad = [
      point(1, 'Infinity'),
      point(2, 'NaN'),
      point(3, 1e308),
      point(4, Infinity),
      point(5, NaN),
      point(-3, 0.5),
      point(1e15, 0.5),
      point(2.5, 0.5),
    ];
    const { series, refused } = admittedSeries({ [KEY]: [point(0, 0.9), ...bad, point(6, 0.95)] });
    assert.deepEqual(
      series[KEY].map((p) => p.step),
      [0, 6],
    );
    assert.equal(
      refused,
      '8 metric points break their rules and were not read; the first: analysis/batch_valid_ratio at step 1 is "Infinity": a metric value must be a finite number from -1e12 to 1e12.',
    );
  });

  it('a run whose every point is hostile gives no figure from them (no "Infinity %", no 300-digit number), and says what was not read', () => {
    const job = { category: 'AgentRFT', status: 'Completed', name: 'j' } as unknown as JobDetails;
    const hostile = Array.from({ length: 20 }, (_, i) => point(i + 1, i % 2 ? 'Infinity' : 1e308));
    const report = checkHealth(
      healthInputOf(job, { [KEY]: hostile, 'rollout/reward/mean': hostile.map((p) => ({ ...p, key: 'rollout/reward/mean' })) }, 0),
    );
    const text = JSON.stringify(report);
    assert.ok(!/Infinity %|\d{30}/.test(text), text);
    assert.equal(report.findings.length, 0);
    assert.match(report.refused ?? '', /^40 metric points break their rules/);
    assert.equal(report.steps, 0);
  });
});
