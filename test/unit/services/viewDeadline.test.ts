import { strict as assert } from 'node:assert';
import { viewDeadline } from '../../../src/services/viewDeadline';

describe('viewDeadline', () => {
  it('aborts at its deadline and tells that apart from a cancel', async () => {
    const timed = viewDeadline(undefined, 0.05);
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.ok(timed.signal.aborted && timed.timedOut());
    assert.equal(
      timed.sentence('Reading x'),
      'Reading x gave no result within 0.05 s. Check the network or mtrl.aws.endpoint, then try again.',
    );
    const cancel = new AbortController();
    const cancelled = viewDeadline(cancel.signal, 60);
    cancel.abort();
    assert.ok(cancelled.signal.aborted && !cancelled.timedOut());
  });
});
