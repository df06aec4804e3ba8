import { strict as assert } from 'node:assert';
import type * as vscode from 'vscode';
import { createStores } from '../../../src/features/stores';

/** globalState / workspaceState as the extension host gives them: key-value stores. */
function memento(): vscode.Memento & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    keys: () => [...data.keys()],
    get: <T>(key: string, fallback?: T) => (data.has(key) ? (data.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => void data.set(key, value),
  } as vscode.Memento & { data: Map<string, unknown> };
}

describe('stores: what the extension keeps between sessions', () => {
  it('keeps the last smoke result per runtime ARN in globalState under mtrl.smoke.results (the keys of earlier versions)', async () => {
    const globalState = memento();
    const { smokeResults } = createStores({ globalState, workspaceState: memento() });
    await smokeResults.remember('arn:a', { ok: false, at: '2026-11-29T19:00:00.000Z', summary: 'failed' });
    await smokeResults.remember('arn:b', { ok: true, at: '2026-11-29T19:01:00.000Z', summary: 'passed' });
    await smokeResults.remember('arn:a', { ok: true, at: '2026-11-29T19:02:00.000Z', summary: 'passed' });
    assert.deepEqual(globalState.data.get('mtrl.smoke.results'), {
      'arn:a': { ok: true, at: '2026-11-29T19:02:00.000Z', summary: 'passed' },
      'arn:b': { ok: true, at: '2026-11-29T19:01:00.000Z', summary: 'passed' },
    });
    assert.equal(smokeResults.get('arn:b')?.ok, true);
    assert.equal(smokeResults.get('arn:c'), undefined);
  });

  it('keeps the ten newest uploads of the workspace, a repeat moved to the front, and the last prefix', async () => {
    const workspaceState = memento();
    const { recentUploads } = createStores({ globalState: memento(), workspaceState });
    assert.deepEqual(recentUploads.list(), []);
    assert.equal(recentUploads.lastPrefix(), undefined);
    for (let i = 0; i < 12; i++) await recentUploads.remember(`s3://b/d${i}.jsonl`);
    await recentUploads.remember('s3://b/d5.jsonl');
    await recentUploads.remember('s3://other/wordle/train.jsonl');
    const list = recentUploads.list();
    assert.equal(list.length, 10);
    assert.deepEqual(list.slice(0, 3), ['s3://other/wordle/train.jsonl', 's3://b/d5.jsonl', 's3://b/d11.jsonl']);
    assert.equal(new Set(list).size, 10);
    assert.equal(recentUploads.lastPrefix(), 's3://other/wordle/');
    assert.deepEqual(workspaceState.data.get('mtrl.datasets.recentUploads'), list);
    assert.equal(workspaceState.data.get('mtrl.datasets.lastUploadPrefix'), 's3://other/wordle/');
  });

  it('remembers wizard answers per workspace and the redeploy warning globally, each under its own key', async () => {
    const globalState = memento();
    const workspaceState = memento();
    const stores = createStores({ globalState, workspaceState });
    await stores.trainingAnswers.set({ region: 'us-west-2', hyperparameters: { learning_rate: '1e-5' } });
    await stores.evaluationAnswers.set({ region: 'eu-west-1', hyperparameters: {} });
    await stores.redeployWarningOff.set(true);
    assert.deepEqual([...workspaceState.data.keys()].sort(), ['mtrl.launch.lastEvaluation', 'mtrl.launch.lastTraining']);
    assert.deepEqual([...globalState.data.keys()], ['mtrl.launch.redeployWarningOff']);
    assert.equal(createStores({ globalState, workspaceState }).trainingAnswers.get()?.region, 'us-west-2');
  });
});
