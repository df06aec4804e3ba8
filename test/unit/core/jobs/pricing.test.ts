import { strict as assert } from 'node:assert';
import { costOf, DEFAULT_PRICING, formatDollars, formatTokens, modelIdOf, pricingFromSetting } from '../../../../src/core/jobs/pricing';

const GPT_OSS = 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b';

describe('jobs pricing', () => {
  it('prices the reference 100-step run at $338.50', () => {
    // The write-up rounds sample tokens to 159.7M; 159.733M reproduces its published $47.92 for that dimension.
    const cost = costOf(
      { PrefillTokenCount: 491_600_000, SampleTokenCount: 159_733_000, TrainTokenCount: 643_300_000 },
      DEFAULT_PRICING[modelIdOf(GPT_OSS)!],
    );
    assert.ok(cost);
    assert.equal(formatDollars(cost.prefill), '$58.99');
    assert.equal(formatDollars(cost.sample), '$47.92');
    assert.equal(formatDollars(cost.train), '$231.59');
    assert.equal(formatDollars(cost.total), '$338.50');
  });

  it('treats missing counts as zero and gives no cost without usage or a price', () => {
    assert.equal(costOf({ TrainTokenCount: 1_000_000 }, { prefill: 1, sample: 1, train: 0.36 })?.total, 0.36);
    assert.equal(costOf(undefined, DEFAULT_PRICING['openai-reasoning-gpt-oss-20b']), undefined);
    assert.equal(costOf({ TrainTokenCount: 5 }, undefined), undefined);
  });

  it('reads the model id from a hub ARN, or keeps a bare id', () => {
    assert.equal(modelIdOf(GPT_OSS), 'openai-reasoning-gpt-oss-20b');
    assert.equal(modelIdOf(`${GPT_OSS}/1.2.0`), 'openai-reasoning-gpt-oss-20b');
    assert.equal(modelIdOf('nova-textgeneration-lite-v2'), 'nova-textgeneration-lite-v2');
    assert.equal(modelIdOf(undefined), undefined);
  });

  it('merges the setting over the defaults and explains bad entries', () => {
    const { table, problems } = pricingFromSetting({
      'huggingface-vlm-qwen3-6-27b': { prefill: 0.2, sample: 0.6, train: 0.8 },
      'openai-reasoning-gpt-oss-20b': { prefill: 0.1, sample: 0.2, train: 0.3 },
      broken: { prefill: 'cheap', sample: -1, train: 1 },
    });
    assert.deepEqual(table['huggingface-vlm-qwen3-6-27b'], { prefill: 0.2, sample: 0.6, train: 0.8 });
    assert.deepEqual(table['openai-reasoning-gpt-oss-20b'], { prefill: 0.1, sample: 0.2, train: 0.3 });
    assert.equal(table.broken, undefined);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /mtrl\.pricing\["broken"\] needs non-negative numbers for prefill, sample/);
    assert.deepEqual(pricingFromSetting([1, 2]).table, DEFAULT_PRICING);
    assert.equal(pricingFromSetting('x').problems.length, 1);
    assert.deepEqual(pricingFromSetting(undefined), { table: DEFAULT_PRICING, problems: [] });
  });

  it('formats dollars and token counts', () => {
    assert.equal(formatDollars(12.3), '$12.30');
    assert.equal(formatDollars(1234.5), '$1,234.50');
    assert.equal(formatTokens(491_600_000), '491.6M');
    assert.equal(formatTokens(12_345), '12.3k');
    assert.equal(formatTokens(950), '950');
  });
});
