import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { collectRollouts } from '../../../src/core/rollouts';

const record = (id: string) => JSON.stringify({ mtrl_rollout: 1, trajectory_id: id, answer: 'crane', turns: [{ guess: 'slate' }, { guess: 'crane' }], solved: true, reward: 1 });

async function rollouts(stdin: AsyncIterable<string>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['rollouts', '-', ...args], { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => stdin });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('mtrl rollouts', function () {
  this.timeout(60_000);

  it('streams standard input: a 65 M-character line is skipped with a note on stderr, the records around it are read', async () => {
    async function* input() {
      yield `${record('a')}\n`;
      const mb = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 65; i++) yield mb;
      yield `\n${record('b')}\n`;
    }
    const { code, out, err } = await rollouts(input(), '--json');
    assert.equal(code, 0, err);
    assert.equal(JSON.parse(out).rollouts, 2);
    assert.match(err, /^mtrl rollouts: line 2 \(68,157,440 characters\) is longer than 64 M characters and was not read\.$/);
  });

  it('a record with 200,000 turns is read as its first 12', async () => {
    const turns = Array.from({ length: 200_000 }, () => ({ guess: 'slate' }));
    async function* input() {
      yield JSON.stringify({ mtrl_rollout: 1, trajectory_id: 't', answer: 'crane', turns, solved: false, reward: -1 });
    }
    const { code, out } = await rollouts(input(), '--json');
    assert.equal(code, 0);
    assert.equal(JSON.parse(out).rollouts, 1);
    const [read] = await collectRollouts(input());
    assert.equal(read.turns.length, 12);
  });
});
