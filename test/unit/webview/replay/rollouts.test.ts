import { strict as assert } from 'node:assert';
import { metricKeys } from '../../../../webview/replay/rollouts';

describe('rollout list metrics columns', () => {
  it('offers every metrics key the rows name, in the order they first appear', () => {
    const rows = [
      { metrics: { task_completed: true, progress_steps: 3 } },
      {},
      { metrics: { progress_steps: 4, policy_error: 'timeout' } },
    ];
    assert.deepEqual(metricKeys(rows), ['task_completed', 'progress_steps', 'policy_error']);
    assert.deepEqual(metricKeys([{}, {}]), []);
  });
});
