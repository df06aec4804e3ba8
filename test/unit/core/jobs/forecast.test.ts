import assert from 'node:assert/strict';
import { describeForecast, forecastOf, msPerStepOf } from '../../../../src/core/jobs/forecast';
import type { JobDetails } from '../../../../src/core/jobs/job';

const point = (step: number) => ({ step, timestamp: 1000 * step });

describe('forecast', () => {
  it('step time from the last steps of a metric', () => {
    assert.equal(msPerStepOf([point(1), point(2), point(4)]), 1000);
    assert.equal(msPerStepOf([point(1)]), undefined);
  });
  it('ETA and projected cost of a running job from its step rate and its cost so far', () => {
    const job: JobDetails = {
      name: 'j',
      arn: 'a',
      category: 'AgentRFT',
      region: 'us-east-1',
      status: 'InProgress',
      created: new Date(0),
      transitions: [{ Status: 'Training', StartTime: new Date(0) }],
      document: {
        TrainingConfig: {
          BaseModelArn: 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b',
        },
        ServiceOutput: {
          ProgressInfo: { MaxSteps: 100, CurrentStep: 25 },
          BillableTokenUsage: { PrefillTokenCount: 1e6, SampleTokenCount: 0, TrainTokenCount: 0 },
        },
      },
    };
    const f = forecastOf(job, { 'openai-reasoning-gpt-oss-20b': { prefill: 1, sample: 0, train: 0 } }, new Date(25 * 60_000));
    assert.equal(f?.msPerStep, 60_000);
    assert.equal(f?.remainingMs, 75 * 60_000);
    assert.equal(f?.projectedCost, 4);
    assert.equal(describeForecast(f!), 'ETA 1h 15m (1m 00s a step) · projected $4.00');
    assert.equal(forecastOf({ ...job, status: 'Completed' }, {}, new Date()), undefined);
  });
});
