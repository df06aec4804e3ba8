import { strict as assert } from 'node:assert';
import { buildReport, reportCounts, reportFileName, reportTitle } from '../../../../src/core/report/model';
import { REPORT_LIMITS } from '../../../../src/core/report/bound';
import { prepareTranscripts } from '../../../../src/core/rollouts';
import type { Transcript } from '../../../../src/core/transcript/model';

const raw = (i: number, step?: number): Transcript => ({
  id: `r${i}`,
  task: { prompt: `Resolve ticket ${i % 10}` },
  groupKey: '',
  ...(step === undefined ? {} : { step }),
  reward: (i % 4) / 4,
  status: 'completed',
  turns: [],
  source: 'record',
});

describe('the shared report model', () => {
  it('counts rollouts and groups as the board says them', () => {
    const rollouts = prepareTranscripts(
      Array.from({ length: 40 }, (_, i) => raw(i, 1)),
      {},
    );
    assert.equal(reportCounts(rollouts), '40 rollouts · 10 groups');
    const unknown = prepareTranscripts([raw(0), raw(1), raw(10, 1)], {});
    assert.equal(reportCounts(unknown), '3 rollouts · 3 groups (2 step unknown)');
  });

  it('counts every rollout read while carrying the bounded ones, the partial read first among the notes', () => {
    const rollouts = prepareTranscripts(
      Array.from({ length: 40 }, (_, i) => raw(i, 1)),
      {},
    );
    const model = buildReport({
      rollouts,
      source: 'run.log',
      madeAt: new Date('2026-12-05T12:00:00Z'),
      job: 'support-run',
      partial: 'the log stream ended',
      limits: { ...REPORT_LIMITS, rolloutsPerGroup: 2 },
    });
    assert.equal(model.counts, '40 rollouts · 10 groups');
    assert.equal(model.rollouts.length, 20);
    assert.equal(model.madeAt, '2026-12-05T12:00:00.000Z');
    assert.equal(model.notes[0], 'Partial: reading stopped after 40 rollouts: the log stream ended');
    assert.match(model.notes[1], /first 2 rollouts of each group/);
    assert.equal('curves' in model || 'scan' in model || 'health' in model, false, 'sections not given are left out');
    assert.equal(reportTitle(model), 'MTRL report: support-run (40 rollouts · 10 groups)');
  });

  it('names the file after what the report is of', () => {
    assert.equal(reportFileName('wordle-grpo-agent-errors'), 'wordle-grpo-agent-errors-report.html');
    assert.equal(reportFileName('logs/run 7.log'), 'run-7-report.html');
    assert.equal(reportFileName('C:\\runs\\a.jsonl'), 'a-report.html');
    assert.equal(reportFileName('???'), 'rollouts-report.html');
  });
});
