import { strict as assert } from 'node:assert';
import type { HealthReport } from '../../../../src/core/health/findings';
import type { JobCurves } from '../../../../src/core/metrics/curves';
import { metricsReport, signalCheckReport } from '../../../../src/core/report/views';
import { prepareTranscripts } from '../../../../src/core/rollouts';
import { signalReport } from '../../../../src/core/signal/report';
import type { Transcript } from '../../../../src/core/transcript/model';

const madeAt = new Date('2026-12-05T12:00:00Z');

const rollouts = prepareTranscripts(
  Array.from({ length: 40 }, (_, i): Transcript => ({
    id: `r${i}`,
    task: { prompt: `Resolve ticket ${i % 10}` },
    groupKey: '',
    step: 1,
    reward: (i % 4) / 4,
    status: 'completed',
    turns: [],
    source: 'record',
  })),
  {},
);

const curves = (name: string): JobCurves => ({
  job: { name, category: 'AgentRFT', region: 'us-east-1' },
  running: false,
  keys: ['rollout/reward/mean'],
  series: { 'rollout/reward/mean': { steps: [1, 2, 3], values: [0.1, 0.2, 0.4] } },
  findings: [{ kind: 'reward-collapse', severity: 'warning', step: 3, metric: 'rollout/reward/mean', sentence: 'It fell.' }],
});

const health = { findings: [], notChecked: [{ kind: 'entropy', reason: 'no entropy metric' }] } as unknown as HealthReport;

describe('Export Report… of the metrics view and the signal report: the model the board and mtrl report write', () => {
  it("the metrics view of one job: its curves as drawn, the view's window and added charts, its health, its rollouts", () => {
    const charts = { window: 5, extraKeys: ['actor/entropy'] };
    const model = metricsReport({
      curves: [curves('support-run')],
      charts,
      health,
      rollouts: { rollouts, source: 'job support-run' },
      madeAt,
    });
    assert.equal(model.job, 'support-run');
    assert.equal(model.counts, '40 rollouts · 10 groups');
    assert.equal(model.rollouts.length, 40);
    assert.deepEqual(
      model.curves?.map((c) => c.job.name),
      ['support-run'],
    );
    assert.deepEqual(model.charts, charts);
    assert.deepEqual(model.health?.notChecked, health.notChecked);
    assert.equal(model.source, 'the metrics view of support-run; rollouts from job support-run');
    assert.deepEqual(model.notes, []);
  });

  it('a job whose rollouts cannot be read still gives its curves, and the header says why there is no board', () => {
    const model = metricsReport({
      curves: [curves('support-run')],
      charts: { window: 10, extraKeys: [] },
      rollouts: { problem: 'Job support-run names no AgentCore runtime.' },
      madeAt,
    });
    assert.equal(model.counts, 'no rollouts');
    assert.equal(model.rollouts.length, 0);
    assert.equal(model.curves?.length, 1);
    assert.deepEqual(model.notes, ['No rollouts: Job support-run names no AgentCore runtime.']);
  });

  it("several overlaid jobs: every job's curves, no rollouts, and the note says why", () => {
    const model = metricsReport({ curves: [curves('lr-1e-5'), curves('lr-3e-5')], charts: { window: 10, extraKeys: [] }, madeAt });
    assert.equal(model.job, 'lr-1e-5, lr-3e-5');
    assert.equal(model.curves?.length, 2);
    assert.equal(model.counts, 'no rollouts');
    assert.match(model.notes[0], /overlays 2 jobs/);
    assert.equal('health' in model, false);
  });

  it('the signal report: the check in its words and the rollouts it checked', () => {
    const shown = {
      title: 'support.log',
      status: 'done' as const,
      at: madeAt.toISOString(),
      report: signalReport(rollouts),
      hasRollouts: true,
    };
    const model = signalCheckReport({ shown, rollouts: { rollouts, source: 'support.log' }, madeAt });
    assert.equal(model.signal?.kind, 'report');
    assert.equal(model.counts, '40 rollouts · 10 groups');
    assert.equal(model.source, 'the learning-signal check of support.log');
    assert.equal('curves' in model, false);
    assert.deepEqual(model.notes, []);
  });

  it('a check kept without its rollouts: the check alone, and the note says so', () => {
    const shown = { title: 'kept check', status: 'done' as const, report: signalReport(rollouts), hasRollouts: false };
    const model = signalCheckReport({ shown, madeAt });
    assert.equal(model.signal?.kind, 'report');
    assert.equal(model.rollouts.length, 0);
    assert.equal(model.counts, 'no rollouts');
    assert.deepEqual(model.notes, ['No rollouts: this check kept only its report.']);
  });
});
