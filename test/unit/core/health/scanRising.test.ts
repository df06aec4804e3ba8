import { strict as assert } from 'node:assert';
import { checkHealth } from '../../../../src/core/health/check';
import type { HealthInput } from '../../../../src/core/health/findings';
import { risingScan } from '../../../../src/core/health/scanRising';
import { HEALTH_DEFAULTS } from '../../../../src/core/health/thresholds';
import { scanTranscripts } from '../../../../src/core/scan';
import type { Transcript } from '../../../../src/core/transcript/model';
import { clean, SEEDS } from '../scan/seeded';

/** 50 rollouts a step at steps 10–60; `marked(step)` of them write their tool call as text. */
function job(marked: (step: number) => number): Transcript[] {
  const rollouts: Transcript[] = [];
  for (let step = 10; step <= 60; step += 10)
    for (let i = 0; i < 50; i++) {
      const id = `s${step}-${i}`;
      const t = i < marked(step) ? SEEDS['tool-call-as-text'](id, step) : clean(id, step);
      rollouts.push({ ...t, groupKey: `|${step}|t${i % 10}` });
    }
  return rollouts;
}

const running = (scan: HealthInput['scan'], category: HealthInput['category'] = 'AgentRFT'): HealthInput => ({
  category,
  series: {},
  hyperParameters: {},
  running: true,
  now: 0,
  scan,
});

describe('run health: a scan kind rising over a running job’s rollouts', () => {
  it('tool-call-as-text at 0 % until step 30 and 14 % at step 60 is a warning at step 30 that says so', () => {
    const f = risingScan(scanTranscripts(job((s) => (s < 30 ? 0 : s === 60 ? 7 : 2))), HEALTH_DEFAULTS)!;
    assert.equal(f.kind, 'rising-scan');
    assert.equal(f.severity, 'warning');
    assert.equal(f.step, 30);
    assert.equal(f.metric, 'scan/tool-call-as-text');
    assert.match(f.sentence, /tool-call-as-text: 0 % until step 30, 14 % at step 60, /);
    assert.deepEqual(
      f.values.map((v) => [v.step, v.value]),
      [
        [20, 0],
        [30, 0.04],
        [40, 0.04],
        [50, 0.04],
        [60, 0.14],
      ],
    );
    assert.equal(f.threshold.setting, 'mtrl.scan.thresholds');
    assert.equal(f.threshold.value, 0.05);
  });

  it('checkHealth adds it beside the curve findings on a training job, never on an evaluation or without a scan', () => {
    const scan = scanTranscripts(job((s) => (s < 30 ? 0 : 7)));
    assert.deepEqual(
      checkHealth(running(scan)).findings.map((f) => [f.kind, f.step]),
      [['rising-scan', 30]],
    );
    assert.deepEqual(checkHealth(running(scan, 'AgentRFTEvaluation')).findings, []);
    assert.deepEqual(checkHealth(running(undefined)).findings, []);
  });

  it('not rising: there from the first step, under its threshold at the latest step, only one step since it began, or gone', () => {
    const none = (marked: (step: number) => number) => risingScan(scanTranscripts(job(marked)), HEALTH_DEFAULTS);
    assert.equal(
      none(() => 7),
      undefined,
      'from the first step: nothing began',
    );
    assert.equal(
      none((s) => (s < 30 ? 0 : 2)),
      undefined,
      '4 % at the latest step is under 5 %',
    );
    assert.equal(
      none((s) => (s < 60 ? 0 : 7)),
      undefined,
      'one step is not a trend (mtrl.health.steps 2)',
    );
    assert.equal(
      none((s) => (s === 30 || s === 40 ? 7 : 0)),
      undefined,
      'back to 0 %',
    );
  });
});
