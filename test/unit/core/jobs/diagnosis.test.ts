import { strict as assert } from 'node:assert';
import { diagnoseFailure } from '../../../../src/core/jobs/diagnosis';

describe('jobs failure diagnosis', () => {
  const cases: Array<[string, RegExp, RegExp]> = [
    [
      'Could not assume role arn:aws:iam::111122223333:role/wrong-trust',
      /role not trusted/i,
      /job\.sagemaker\.amazonaws\.com.*sts:TagSession/,
    ],
    [
      'ClientError: No sampling requests were received for trajectory abc',
      /never called the policy model/i,
      /return a reward for every rollout/,
    ],
    ['The agent signaled that the trajectory failed.', /failed rollout/i, /return a reward.*instead of raising/],
    [
      'ClientError: Training data has 32 prompts but global_batch_size is 32. The number of prompts must be greater than the batch size.',
      /too small for the batch/i,
      /more rows than global_batch_size/,
    ],
    ['The rollout completed but no reward was received in time', /out of time/i, /ROLLOUT_BUDGET_SECONDS.*rollout_timeout/],
    ['AccessDeniedException: User is not authorized to perform CreateJob', /access denied/i, /not enabled.*AmazonSageMakerJobFullAccess/],
    ['MaxRuntimeExceeded: the job exceeded its runtime', /maximum runtime/i, /MaxRuntimeInSeconds/],
  ];
  for (const [reason, title, fix] of cases) {
    it(`explains "${reason.slice(0, 40)}…"`, () => {
      const d = diagnoseFailure(reason);
      assert.ok(d?.known);
      assert.match(d.title, title);
      assert.match(d.fix, fix);
      assert.equal(d.reason, reason);
    });
  }

  it('recognises the runtime limit from the secondary status alone', () => {
    const d = diagnoseFailure(undefined, 'MaxRuntimeExceeded');
    assert.equal(d?.title, 'Maximum runtime exceeded');
    assert.equal(d?.reason, 'MaxRuntimeExceeded');
  });

  it('shows unknown reasons verbatim, and nothing for no reason', () => {
    assert.deepEqual(diagnoseFailure('  Disk quota melted  '), {
      title: 'Disk quota melted',
      fix: '',
      reason: 'Disk quota melted',
      known: false,
    });
    assert.equal(diagnoseFailure(undefined), undefined);
    assert.equal(diagnoseFailure('   '), undefined);
  });
});
