import { strict as assert } from 'node:assert';
import type * as vscode from 'vscode';
import { describeRecord, SMOKE_RESULTS_KEY, SmokeResults } from '../../../../src/features/smoke/results';

/** globalState as the extension host gives it: a key-value store. */
function memento(): vscode.Memento {
  const data = new Map<string, unknown>();
  return {
    keys: () => [...data.keys()],
    get: <T>(key: string, fallback?: T) => (data.has(key) ? (data.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => void data.set(key, value),
  } as vscode.Memento;
}

describe('smoke results', () => {
  it('keeps the last result per runtime ARN under mtrl.smoke.results, the shape the launch pre-flight reads', async () => {
    const state = memento();
    const results = new SmokeResults(state);
    await results.remember('arn:a', { ok: false, at: '2026-11-29T19:00:00.000Z', summary: 'failed' });
    await results.remember('arn:b', { ok: true, at: '2026-11-29T19:01:00.000Z', summary: 'passed' });
    await results.remember('arn:a', { ok: true, at: '2026-11-29T19:02:00.000Z', summary: 'passed' });
    assert.equal(SMOKE_RESULTS_KEY, 'mtrl.smoke.results');
    assert.deepEqual(state.get(SMOKE_RESULTS_KEY), {
      'arn:a': { ok: true, at: '2026-11-29T19:02:00.000Z', summary: 'passed' },
      'arn:b': { ok: true, at: '2026-11-29T19:01:00.000Z', summary: 'passed' },
    });
  });

  it('describes a result by verdict and age', () => {
    const now = Date.parse('2026-11-29T20:00:00.000Z');
    assert.equal(describeRecord(undefined, now), 'not smoke-tested');
    assert.equal(describeRecord({ ok: true, at: '2026-11-29T19:59:50.000Z', summary: '' }, now), 'smoke passed just now');
    assert.equal(describeRecord({ ok: false, at: '2026-11-29T19:35:00.000Z', summary: '' }, now), 'smoke failed 25 min ago');
    assert.equal(describeRecord({ ok: true, at: '2026-11-29T15:00:00.000Z', summary: '' }, now), 'smoke passed 5 h ago');
    assert.equal(describeRecord({ ok: true, at: '2026-11-20T20:00:00.000Z', summary: '' }, now), 'smoke passed 9 d ago');
  });
});
