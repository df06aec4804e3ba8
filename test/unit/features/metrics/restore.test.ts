import assert from 'node:assert/strict';
import { restoredMetrics } from '../../../../src/features/metrics/restore';

describe('metrics view after a window reload', () => {
  it('brings back the jobs it can name again, the window within 1–100 steps and the text keys', () => {
    const restored = restoredMetrics(
      {
        jobs: [
          { name: 'wordle-a', category: 'AgentRFT', region: 'us-west-2' },
          { name: 'refund-b', category: 'AgentRFT' } as never,
          { name: 42, category: 'AgentRFT', region: 'us-east-1' } as never,
          null as never,
        ],
        window: 250.4,
        extraKeys: ['rollout/turns/mean', 7 as never],
      },
      'eu-west-1',
    );
    assert.deepEqual(restored, {
      jobs: [
        { name: 'wordle-a', category: 'AgentRFT', region: 'us-west-2' },
        // A job saved without a region is read in the current one.
        { name: 'refund-b', category: 'AgentRFT', region: 'eu-west-1' },
      ],
      window: 100,
      extraKeys: ['rollout/turns/mean'],
    });
    assert.equal(restoredMetrics({ jobs: [{ name: 'a', category: 'AgentRFT', region: 'us-east-1' }], window: 0 }, 'us-east-1')?.window, 1);
  });

  it('closes rather than show an empty view: no state, no job, or no job it can name', () => {
    assert.equal(restoredMetrics(undefined, 'us-east-1'), undefined);
    assert.equal(restoredMetrics({ jobs: [] }, 'us-east-1'), undefined);
    assert.equal(restoredMetrics({ jobs: 'wordle-a' as never, window: 10 }, 'us-east-1'), undefined);
    assert.equal(restoredMetrics({ jobs: [{ name: '', category: 'Nope' } as never] }, 'us-east-1'), undefined);
  });
});
