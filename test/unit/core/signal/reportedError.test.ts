import { strict as assert } from 'node:assert';
import { reportedError, stderrTail } from '../../../../src/core/signal/reportedError';

describe("the agent's reported error", () => {
  it('reads a summary, status or metric that says failed or error, quoting the most telling field', () => {
    assert.equal(
      reportedError({ reward: 0.0, summary: 'error: Unable to locate credentials' }, 0, []),
      'error: Unable to locate credentials',
    );
    assert.equal(reportedError({ status: 'error', message: 'no ticket' }, 2, []), 'no ticket');
    assert.equal(reportedError({ status: 'failed' }, 2, []), 'status: failed');
    assert.equal(reportedError({ reward: 0, metrics: { error: 'ThrottlingException' } }, 3, []), 'ThrottlingException');
    assert.equal(reportedError({ reward: 0, summary: 'BotoCoreError: could not connect' }, 1, []), 'BotoCoreError: could not connect');
  });

  it('leaves a played rollout alone: a summary that mentions an error in passing, or stderr noise after model calls', () => {
    assert.equal(reportedError({ reward: 1, summary: 'Refunded: the customer reported an error in the invoice' }, 3, []), undefined);
    assert.equal(reportedError({ reward: 1 }, 3, ['warning: error rate high']), undefined);
  });

  it('a reward with no model call: the last error line the agent logged (a caught exception)', () => {
    const stderr = ['starting rollout', 'botocore.exceptions.NoCredentialsError: Unable to locate credentials', 'returning 0'];
    assert.equal(reportedError({ reward: 0 }, 0, stderr), 'botocore.exceptions.NoCredentialsError: Unable to locate credentials');
    assert.equal(reportedError({ reward: 0 }, 0, ['nothing to say']), undefined);
  });

  it("keeps the last lines of a rollout's stderr", () => {
    assert.deepEqual(stderrTail('a\n\nb\nc\nd\ne\nf\n', 3), ['d', 'e', 'f']);
  });
});
