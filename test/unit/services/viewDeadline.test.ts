import { strict as assert } from 'node:assert';
import { explainerFor } from '../../../src/aws/errors';
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

  it('reads a failure as the deadline once it passed, else as the explainer reads the error', async () => {
    const explain = explainerFor(() => ({ region: 'us-east-1' }));
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    assert.equal(viewDeadline(undefined, 60).failure(refused, 'Listing x', explain).kind, 'unreachable');
    assert.match(viewDeadline(undefined, 60).failure(refused, 'Listing x', explain).sentence, /^Listing x failed/);
    const timed = viewDeadline(undefined, 0.05);
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.deepEqual(timed.failure(new Error('aborted'), 'Listing x', explain), {
      kind: 'unreachable',
      sentence: 'Listing x gave no result within 0.05 s. Check the network or mtrl.aws.endpoint, then try again.',
    });
  });
});
