import assert from 'node:assert/strict';
import { movingAverage } from '../../../../src/core/metrics/movingAverage';

describe('movingAverage', () => {
  it('averages the trailing window, fewer values at the start, like make_plots.py', () => {
    assert.deepEqual(movingAverage([1, 2, 3, 4, 5], 3), [1, 1.5, 2, 3, 4]);
  });
  it('a window of 1 is the raw series; a window longer than the series is the running mean', () => {
    assert.deepEqual(movingAverage([4, 2, 6], 1), [4, 2, 6]);
    assert.deepEqual(movingAverage([4, 2, 6], 10), [4, 3, 4]);
  });
  it('skips gaps without resetting the window', () => {
    assert.deepEqual(movingAverage([null, 2, null, 4], 2), [null, 2, 2, 3]);
  });
});
