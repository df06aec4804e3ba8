import assert from 'node:assert/strict';
import { restoredSource } from '../../../../src/features/signal/restore';

describe('learning-signal report after a window reload', () => {
  it('reads back a file, an evaluation job or a kept check, and nothing half-formed', () => {
    const file = { kind: 'file', uri: 'file:///w/signal/refund-check', label: 'signal/refund-check' };
    assert.deepEqual(restoredSource(file), file);
    const job = { kind: 'job', jobName: 'base-model-eval', region: 'us-east-1', label: 'evaluation job base-model-eval' };
    assert.deepEqual(restoredSource(job), job);
    const key = { dataset: 's3://b/train.jsonl', runtime: 'arn:aws:bedrock-agentcore:us-east-1:1:runtime/r', reward: 'reward.py' };
    const kept = restoredSource({ kind: 'kept', key, label: 'anything saved' });
    assert.equal(kept?.kind, 'kept');
    assert.deepEqual(kept?.kind === 'kept' && kept.key, key);

    for (const broken of [
      undefined,
      null,
      'signal/refund-check',
      { kind: 'file', label: 'no uri' },
      { kind: 'file', uri: 'file:///w/x' },
      { kind: 'job', jobName: 'no region', label: 'x' },
      { kind: 'kept', key: { dataset: 's3://b/t.jsonl' }, label: 'half a key' },
      { kind: 'fixture', label: 'unknown kind' },
    ])
      assert.equal(restoredSource(broken), undefined, JSON.stringify(broken));
  });
});
