import { strict as assert } from 'node:assert';
import { tokenLines, type LocalOptions } from '../../../src/cli/signalLocal';
import type { LocalSignalResult } from '../../../src/services/signal/localSignal';

const options = { steps: '10', 'batch-size': '4' } as LocalOptions;
const resultWith = (tokens: LocalSignalResult['tokens']) => ({ tokens }) as LocalSignalResult;

describe('mtrl signal --local: tokens and cost', () => {
  it('with usage from every call: the figures and the planned job’s cost', () => {
    const { lines, json } = tokenLines(resultWith([{ prefill: 100, sample: 20 }]), 2, options);
    assert.equal(lines[0], '  tokens per rollout: 100 prefill, 20 sample');
    assert.match(lines[1], /80 rollouts .*\$/);
    assert.ok(json.projectedCost);
  });

  it('a policy that reports no usage: tokens and cost said unknown, never $0.00', () => {
    const { lines, json } = tokenLines(resultWith([{ prefill: 0, sample: 0, unreported: 3 }]), 2, options);
    assert.equal(
      lines[0],
      '  tokens per rollout: unknown (the policy reported no token usage for 3 model calls); counted 0 prefill, 0 sample',
    );
    assert.equal(
      lines[1],
      '  planned job at gpt-oss-20b prices: 80 rollouts (steps × batch size × group size), cost unknown: the policy reported no token usage for 3 model calls',
    );
    assert.ok(!lines.join('\n').includes('$'));
    assert.equal(json.projectedCost, undefined);
    assert.match(json.tokensUnknown ?? '', /no token usage/);
  });

  it('a refused usage count: the cost is unknown too, with the rule', () => {
    const refused =
      "the policy's prompt_tokens 1e+308 breaks the token count rule (a token count must be a whole number from 0 to 10,000,000 per model call) and was not counted";
    const { lines } = tokenLines(
      resultWith([
        { prefill: 5, sample: 1, refused },
        { prefill: 5, sample: 1 },
      ]),
      2,
      options,
    );
    assert.match(
      lines[0],
      /^ {2}tokens per rollout: unknown \(in 1 of 2 rollouts the policy's prompt_tokens 1e\+308 breaks the token count rule/,
    );
    assert.match(lines[1], /cost unknown/);
    assert.ok(!lines.join('\n').includes('$0.00'));
  });
});
