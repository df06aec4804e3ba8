import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { ceiling } from '../../host/lib/ceiling';

const fixture = (name: string) => path.resolve(__dirname, '../../fixtures/reward', name);

async function mtrl(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('reward: mtrl reward', function () {
  this.timeout(ceiling(30_000));

  it("a Python reward is scored on its pack's scenarios; --json keeps games{name,guesses,reward} and invariants{name,ok,detail} beside the scenario fields", async () => {
    const { code, out } = await mtrl('reward', fixture('final_design.py'), '--json');
    assert.equal(code, 0);
    const doc = JSON.parse(out);
    assert.deepEqual(Object.keys(doc), ['games', 'invariants', 'reward', 'scenarios', 'failures', 'expectations']);
    assert.equal(doc.games.length, 11);
    for (const game of doc.games) assert.deepEqual(Object.keys(game), ['name', 'guesses', 'reward']);
    for (const inv of doc.invariants) assert.deepEqual(Object.keys(inv), ['name', 'ok', 'detail']);
    assert.deepEqual(doc.games[0], { name: 'solve@1', guesses: ['crane'], reward: doc.games[0].reward });
    assert.equal(doc.reward.target, 'WordleGame');
  });

  it('exit 1 and the broken pairs at the reward line in the human output when an expectation fails', async () => {
    const { code, out } = await mtrl('reward', fixture('summed_design.py'));
    assert.equal(code, 1);
    assert.match(out, /✗ summed_design\.py:48 loss < 0: loss 0\.49 is not < 0/);
    assert.match(out, /✗ summed_design\.py:48 solve@1 > solve@2: solve@1 0\.99 is not > solve@2/);
    assert.match(out, /✗ 8\/18$/);
  });

  it('exit 2 with file:line:column when the code cannot run', async () => {
    const { code, err } = await mtrl('reward', fixture('syntax_error.py'));
    assert.equal(code, 2);
    assert.match(err, /syntax_error\.py:5:26: SyntaxError/);
  });

  it('usage errors exit 2 with one line; a Python file no pack recognizes asks for a scenario file', async () => {
    assert.equal((await mtrl('reward')).code, 2);
    assert.equal((await mtrl('reward', 'missing.py')).code, 2);
    const unknown = await mtrl('reward', fixture('no_reward.py'));
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /no environment pack recognizes a reward in .*no_reward\.py: name it in a \*\.mtrl-reward\.json file/);
  });

  it('a FIFO is refused as not a regular file, and a timeout past the maximum is a usage error (exit 2, never "an endless loop")', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-reward-'));
    const fifo = path.join(dir, 'reward.py');
    execFileSync('mkfifo', [fifo]);
    const piped = await mtrl('reward', fifo);
    assert.equal(piped.code, 2);
    assert.match(piped.err, /is not a regular file/);
    assert.doesNotMatch(piped.err, /endless loop/);
    const long = await mtrl('reward', fixture('final_design.py'), '--timeout', String(2 ** 31));
    assert.equal(long.code, 2);
    assert.match(long.err, /--timeout takes seconds between 0 and 3600/);
  });
});

describe('reward: mtrl reward with a scenario file', function () {
  this.timeout(ceiling(60_000));
  const scenarios = (name: string) => path.resolve(__dirname, '../../fixtures/workspace/reward-scenarios', name);

  it('scores the scenarios and exits 0 when every expectation holds', async () => {
    const { code, out } = await mtrl('reward', scenarios('support.mtrl-reward.json'));
    assert.equal(code, 0);
    assert.match(out, /^ideal 1\.00 · shortcut 0\.25 · gave-up 0\.00 · ✓ 5\/5$/m);
  });

  it('exits 1 and names the reward line and the pair when a shortcut scores above the ideal', async () => {
    const { code, out } = await mtrl('reward', scenarios('bad-support.mtrl-reward.json'));
    assert.equal(code, 1);
    assert.match(out, /✗ bad_support_env\.py:17 ideal > shortcut: ideal 1\.00 is not > shortcut 1\.25/);
  });

  it('--json prints reward, scenarios, failures and expectations', async () => {
    const { code, out } = await mtrl('reward', scenarios('math.mtrl-reward.json'), '--json');
    assert.equal(code, 0);
    const doc = JSON.parse(out);
    assert.deepEqual(Object.keys(doc), ['reward', 'scenarios', 'failures', 'expectations']);
    assert.deepEqual(
      doc.scenarios.map((s: { name: string; reward: number }) => [s.name, s.reward]),
      [
        ['ideal', 1],
        ['worked-wrong', 0.1],
        ['silent', 0],
      ],
    );
  });

  it('--rescore reads transcripts as JSON Lines and reports the zero-advantage share before and after', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-rescore-'));
    const file = path.join(dir, 'transcripts.jsonl');
    const lines = ['A', 'B'].flatMap((g) =>
      [0, 1].map((r, i) =>
        JSON.stringify({
          id: `${g}${i}`,
          groupKey: g,
          reward: g === 'A' ? 1 : r,
          status: 'completed',
          source: 'trace',
          task: { prompt: g },
          turns: [],
        }),
      ),
    );
    writeFileSync(file, lines.join('\n'));
    const { code, out } = await mtrl('reward', scenarios('constant.mtrl-reward.json'), '--rescore', file, '--json');
    assert.equal(code, 0);
    const report = JSON.parse(out);
    assert.deepEqual([report.before.zeroAdvantageGroups, report.after.zeroAdvantageGroups, report.after.groups], [1, 2, 2]);
    const text = await mtrl('reward', scenarios('constant.mtrl-reward.json'), '--rescore', file);
    assert.match(text.out, /zero-advantage groups\s+before 50\.0 % \(1\/2\)\s+after 100\.0 % \(2\/2\)/);
  });

  it('--rescore of a file holding no rollout is a usage error naming it; with a .py file it asks for the scenario file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-rescore-'));
    const file = path.join(dir, 'bad.jsonl');
    writeFileSync(file, '{"id": "a", "task": {}, "turns": []}\nnot json\n');
    const bad = await mtrl('reward', scenarios('constant.mtrl-reward.json'), '--rescore', file);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /no rollouts in .*bad\.jsonl/);
    const py = await mtrl('reward', scenarios('constant_reward.py'), '--rescore', file);
    assert.equal(py.code, 2);
    assert.match(py.err, /--rescore takes the reward from a \*\.mtrl-reward\.json file/);
  });
});
