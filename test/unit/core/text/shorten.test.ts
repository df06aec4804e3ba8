import { strict as assert } from 'node:assert';
import { shortenMiddle } from '../../../../src/core/text/shorten';

describe('shortenMiddle', () => {
  it('keeps ids that fit and cuts longer ones in the middle to exactly the limit, both ends kept', () => {
    assert.equal(shortenMiddle('wordle-grpo', 24), 'wordle-grpo');
    const name = 'wordle-gptoss20b-grpo-lr-sweep';
    const short = shortenMiddle(name, 21);
    assert.equal(short, 'wordle-gpt…o-lr-sweep');
    assert.equal(Array.from(short).length, 21);
    const arn = 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/wordle-gptoss20b-grpo-100steps';
    assert.equal(shortenMiddle(arn, 30), 'arn:aws:sagemak…-grpo-100steps');
  });

  it('never splits a character made of two UTF-16 units', () => {
    const short = shortenMiddle('😀'.repeat(10), 5);
    assert.equal(short, '😀😀…😀😀');
  });
});
