import { strict as assert } from 'node:assert';
import { shortenAtWords, shortenMiddle } from '../../../../src/core/text/shorten';

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

describe('shortenAtWords', () => {
  it('keeps names that fit and cuts longer ones between whole words, never inside one', () => {
    assert.equal(shortenAtWords('wordle-grpo', 24), 'wordle-grpo');
    assert.equal(shortenAtWords('fine-tuned-model-eval', 16), 'fine-tuned…eval');
    assert.equal(shortenAtWords('wordle-gptoss20b-grpo-lr-sweep', 21), 'wordle…grpo-lr-sweep');
    for (const name of ['wordle-gptoss20b-grpo-lr-sweep-0003', 'host-launch-x54zqbf', 'wordle-similar-x5506xb']) {
      const short = shortenAtWords(name, 16);
      assert.ok(Array.from(short).length <= 16, short);
      const words = name.split(/[-_.]/);
      for (const shown of short.split(/[-_.…]/).filter(Boolean))
        assert.ok(words.includes(shown), `"${shown}" of ${short} is cut inside a word of ${name}`);
    }
  });

  it('keeps a first word longer than the limit whole', () => {
    assert.equal(shortenAtWords('supercalifragilistic-run', 10), 'supercalifragilistic…');
    assert.equal(shortenAtWords('😀😀😀-😀😀', 5), '😀😀😀…');
  });
});
