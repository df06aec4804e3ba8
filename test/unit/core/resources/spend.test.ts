import { strict as assert } from 'node:assert';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';
import type { JobDetails } from '../../../../src/core/jobs/job';
import { s3MonthlyCost, spendOf } from '../../../../src/core/resources/spend';

const GPT_OSS = 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b';

function job(name: string, status: string, ended: string | undefined, model = GPT_OSS): JobDetails {
  return {
    name,
    arn: name,
    category: 'AgentRFT',
    region: 'us-east-1',
    status,
    created: new Date('2026-10-20T00:00:00Z'),
    ended: ended ? new Date(ended) : undefined,
    transitions: [],
    document: {
      TrainingConfig: { BaseModelArn: model },
      ServiceOutput: { BillableTokenUsage: { PrefillTokenCount: 491.6e6, SampleTokenCount: 159.7e6, TrainTokenCount: 643.3e6 } },
    },
  };
}

describe('spend', () => {
  const now = new Date('2026-11-29T12:00:00Z');

  it('prices each job and sums those that ran this month, running ones included', () => {
    const spend = spendOf(
      [
        job('last-month', 'Completed', '2026-10-31T23:00:00Z'),
        job('this-month', 'Completed', '2026-11-02T00:00:00Z'),
        job('running', 'InProgress', undefined),
      ],
      DEFAULT_PRICING,
      now,
    );
    assert.ok(Math.abs((spend.jobs[0].cost?.total ?? 0) - 338.5) < 0.05, 'the write-up run, from its rounded token counts');
    assert.ok(
      Math.abs(spend.monthToDate - 2 * (spend.jobs[0].cost?.total ?? 0)) < 1e-9,
      'this month: the finished job and the running one',
    );
  });

  it('names the jobs whose model has no price instead of counting them as free', () => {
    const spend = spendOf(
      [
        job(
          'nova',
          'Completed',
          '2026-11-02T00:00:00Z',
          'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/nova-textgeneration-lite-v2',
        ),
      ],
      DEFAULT_PRICING,
      now,
    );
    assert.deepEqual(spend.unpriced, ['nova']);
    assert.equal(spend.monthToDate, 0);
  });

  it('prices keeping S3 objects at S3 Standard', () => {
    assert.equal(s3MonthlyCost(1024 ** 3), 0.023);
  });
});
