import { strict as assert } from 'node:assert';
import { describeTrainingArithmetic, evaluationArithmetic, trainingArithmetic } from '../../../../src/core/jobs/arithmetic';
import { estimateCost, REFERENCE_TOKENS_PER_ROLLOUT, tokensPerRolloutOf } from '../../../../src/core/jobs/estimate';

describe('launch arithmetic', () => {
  it('reproduces the reference run: 640 rows, batch 128, group 8 → 5 steps/epoch, 1,024 rollouts/step', () => {
    const a = trainingArithmetic(
      640,
      { global_batch_size: '128', group_size: '8', max_steps: '100', max_epochs: '20' },
      { validationRows: 128 },
    );
    assert.equal(a.stepsPerEpoch, 5);
    assert.equal(a.rolloutsPerStep, 1024);
    assert.equal(a.totalSteps, 100);
    assert.equal(a.stopsBy, 'both');
    assert.equal(a.trainingRollouts, 102_400);
    assert.equal(a.validationRollouts, 10 * 128);
    assert.equal(a.leftoverRows, 0);
    assert.ok(
      describeTrainingArithmetic(a).includes('validation: 128 validation rows × 10 runs (every val_every 10 steps) = 1,280 rollouts'),
      'the "+1,280 validation" is explained',
    );
  });

  it('says which limit stops first', () => {
    assert.equal(trainingArithmetic(640, { max_steps: '100', max_epochs: '3' }).stopsBy, 'max_epochs');
    assert.equal(trainingArithmetic(640, { max_steps: '100', max_epochs: '3' }).totalSteps, 15);
    assert.equal(trainingArithmetic(640, { max_steps: '7', max_epochs: '3' }).stopsBy, 'max_steps');
    const lines = describeTrainingArithmetic(trainingArithmetic(640, { max_steps: '100', max_epochs: '3' }));
    assert.match(lines.join('\n'), /max_epochs 3 stops first at step 15/);
  });

  it('uses the model defaults when a value is not given', () => {
    // Recipe default max_steps 50, max_epochs 1; gpt-oss-20b's max_steps is 100.
    assert.equal(trainingArithmetic(6400, {}).totalSteps, 50);
    assert.equal(trainingArithmetic(64_000, { max_epochs: '30' }, { modelId: 'openai-reasoning-gpt-oss-20b' }).totalSteps, 100);
  });

  it('reports rows that do not fill a batch', () => {
    const a = trainingArithmetic(600, { global_batch_size: '128' });
    assert.equal(a.stepsPerEpoch, 4);
    assert.equal(a.leftoverRows, 88);
  });

  it('counts evaluation rollouts as rows × eval_group_size', () => {
    assert.equal(evaluationArithmetic(128, { eval_group_size: '4' }).totalRollouts, 512);
    assert.equal(evaluationArithmetic(128, {}).totalRollouts, 128);
  });
});

describe('cost estimate', () => {
  const prices = { prefill: 0.12, sample: 0.3, train: 0.36 };

  it('brackets the reference run cost from the reference per-rollout tokens', () => {
    // The published run: 105,486 rollouts cost $338.50 in tokens.
    const e = estimateCost(105_486, [], prices, 'AgentRFT');
    assert.ok(e.low < 338.5 && 338.5 < e.high, `${e.low} – ${e.high}`);
    assert.match(e.basis, /published/);
  });

  it('uses the spread of the user own jobs when there are several', () => {
    const a = tokensPerRolloutOf({ PrefillTokenCount: 1000e3, SampleTokenCount: 100e3, TrainTokenCount: 2000e3 }, 1000, 'job a')!;
    const b = tokensPerRolloutOf({ PrefillTokenCount: 2000e3, SampleTokenCount: 200e3, TrainTokenCount: 4000e3 }, 1000, 'job b')!;
    const e = estimateCost(1000, [a, b], prices, 'AgentRFT');
    assert.ok(Math.abs(e.low - (1000 * 0.12 + 100 * 0.3 + 2000 * 0.36) / 1000) < 1e-9);
    assert.ok(Math.abs(e.high - 2 * e.low) < 1e-9);
    assert.match(e.basis, /2 of your completed jobs/);
  });

  it('leaves train tokens out of an evaluation', () => {
    const t = REFERENCE_TOKENS_PER_ROLLOUT;
    const e = estimateCost(1, [t], prices, 'AgentRFTEvaluation');
    assert.ok(Math.abs(e.low - (0.75 * (t.prefill * 0.12 + t.sample * 0.3)) / 1e6) < 1e-12);
  });

  it('gives a real range when several jobs agree (jobs of one config), never "$332.71 – $332.71"', () => {
    const t = REFERENCE_TOKENS_PER_ROLLOUT;
    const e = estimateCost(1000, [t, { ...t, source: 'another' }], prices, 'AgentRFT');
    assert.ok(e.high > e.low * 1.5, `${e.low} – ${e.high}`);
    assert.match(e.basis, /2 of your completed jobs/);
  });

  it('has no per-rollout figure for a job without rollouts', () => {
    assert.equal(tokensPerRolloutOf({ PrefillTokenCount: 5 }, 0, 'x'), undefined);
  });
});
