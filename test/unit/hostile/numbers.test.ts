import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { REWARD_LIMIT, REWARD_RULE, TOKEN_COUNT_RULE } from '../../../src/core/numberRules';
import { parseHarnessOutput, RESULT_MARKER } from '../../../src/core/reward/protocol';
import { RolloutRecording } from '../../../src/core/signal/rolloutRecording';
import { ceiling } from '../../host/lib/ceiling';

// Hostile numbers at every boundary: each ends with a sentence naming the rule, never a stack trace or `Infinity` figures.

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

const record = (id: string, reward: unknown, task: string) =>
  JSON.stringify({ mtrl_rollout: 1, trajectory_id: id, prompt: task, step: 1, reward, turns: [{ text: 'played' }] });

/** A log of two tasks × 4 rollouts whose first rollout's reward is written as `first` (raw JSON text). */
function logWith(first: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-numbers-'));
  const lines = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => record(`r${i}`, i % 2 ? 0.5 : 0, `task ${Math.floor(i / 4)}`));
  lines[0] = lines[0].replace('"reward":0', `"reward":${first}`);
  const file = path.join(dir, 'run.log');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

const task = { id: 't', groupKey: 't', row: {}, rowIndex: 0, prompt: 'p', jobArn: 'arn' };

describe('hostile numbers: the reward and token count rules', () => {
  for (const [name, text, shown] of [
    ['1e308', '1e308', '1e+308'],
    ['-1e308', '-1e308', '-1e+308'],
    ['an overflowing 1e999', '1e999', 'Infinity'],
    ['a per-turn list that sums past the limit', '[1e308, 1e308]', 'Infinity'],
    ['Python\'s "nan"', '"nan"', 'NaN'],
  ] as const)
    it(`mtrl rollouts and mtrl signal refuse a reward of ${name} with the rule, exit 2, no Infinity figures`, async () => {
      const file = logWith(text);
      for (const command of ['rollouts', 'signal']) {
        const { code, out, err } = await cli(command, file);
        assert.equal(code, 2, `${command}: ${err}`);
        assert.equal(out, '');
        assert.ok(err.includes(`break`) && err.includes(`(${REWARD_RULE})`), err);
        assert.ok(err.includes(`r0 ${shown}`), err);
        assert.doesNotMatch(err, /\n\s+at |TypeError/);
      }
    });

  it('reads an SDK UpdateReward line of inf as a reward that breaks the rule, not as a rollout without one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-numbers-'));
    const file = path.join(dir, 'sdk.log');
    writeFileSync(file, 'INFO UpdateReward: trajectory_id=abc rewards=[inf]\nINFO CompleteRollout: trajectory_id=abc status=ready\n');
    const { code, err } = await cli('rollouts', file);
    assert.equal(code, 2);
    assert.match(err, /abc Infinity/);
  });

  it('keeps rewards at the limit: ±1e9 is read and reported', async () => {
    const { code, out } = await cli('rollouts', logWith(String(-REWARD_LIMIT)));
    assert.equal(code, 0);
    assert.match(out, /min -1000000000/);
  });

  it('the reward harness answer with a reward past the limit names the scenario and the rule (not "without a result")', () => {
    const answer = parseHarnessOutput(
      `${RESULT_MARKER}${JSON.stringify({ ok: true, target: 'reward', rewards: { fast: 1, huge: 1e308 } })}\n`,
    );
    assert.deepEqual(answer, {
      ok: false,
      error: 'runtime',
      message: `huge scored 1e+308, which breaks the reward rule: ${REWARD_RULE}.`,
    });
  });

  it('the Python harness states the same rule as the TypeScript side', () => {
    const harness = readFileSync(path.resolve(__dirname, '../../../src/python/reward_harness.py'), 'utf8');
    assert.ok(harness.includes(`REWARD_LIMIT = ${REWARD_LIMIT.toExponential().replace('+', '')}`));
    assert.ok(harness.includes(`REWARD_RULE = "${REWARD_RULE}"`));
  });

  it('mtrl reward names the rule for a reward of 1e308, inf or nan on each scenario (no stack trace)', async function () {
    this.timeout(ceiling(60_000));
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-numbers-'));
    for (const [value, shown] of [
      ['1e308', '1e+308'],
      ["float('inf')", 'inf'],
      ["float('nan')", 'nan'],
    ]) {
      const file = path.join(dir, `reward_${shown.replace(/\W/g, '')}.py`);
      writeFileSync(
        file,
        `class WordleGame:\n    def __init__(self, answer):\n        pass\n    def guess(self, word):\n        pass\n    def final_reward(self):\n        return ${value}\n`,
      );
      // Every scenario fails with the rule (a finding, exit 1); the expectations say they could not be checked.
      const { code, out, err } = await cli('reward', file);
      assert.equal(code, 1, err);
      assert.ok(out.includes(`returned ${shown}, which breaks the reward rule: ${REWARD_RULE}`), out);
      assert.match(out, /not checked: solve@1 and solve@2 have no score/);
      assert.doesNotMatch(`${out}${err}`, /Traceback|\n\s+at /);
    }
  });

  it("the agent runner passes an entrypoint's NaN and infinite rewards as text, which the rollout names", () => {
    const script = `import sys; sys.path.insert(0, ${JSON.stringify(path.resolve(__dirname, '../../../src/python'))})
import agent_runner, json
print(json.dumps(agent_runner.json_safe({"reward": float("nan"), "metrics": {"x": [float("-inf"), 1.5]}}), allow_nan=False))`;
    const run = spawnSync('python3', ['-c', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { reward: 'nan', metrics: { x: ['-inf', 1.5] } });
    const recording = new RolloutRecording(task);
    recording.returned(JSON.parse(run.stdout));
    const t = recording.transcript();
    assert.equal(t.status, 'error');
    assert.equal(t.reward, undefined);
    assert.equal(t.error, `The agent reported the reward "nan", which breaks the reward rule: ${REWARD_RULE}.`);
  });

  it('a rollout whose SDK reports 1e308 stays failed when it completes after', () => {
    const recording = new RolloutRecording(task);
    recording.rewarded([1e308]);
    recording.completed('ready');
    assert.equal(recording.transcript().status, 'error');
    assert.match(recording.transcript().error ?? '', /\[1e\+308\], which breaks the reward rule/);
  });

  it("leaves a policy's negative or absurd token counts out and names the rule", () => {
    const recording = new RolloutRecording(task);
    recording.modelCall(
      { messages: [] },
      { choices: [{ message: { content: 'a' } }], usage: { prompt_tokens: 120, completion_tokens: 30 } },
    );
    recording.modelCall(
      { messages: [] },
      { choices: [{ message: { content: 'b' } }], usage: { prompt_tokens: -5, completion_tokens: 1e308 } },
    );
    recording.modelCall(
      { messages: [] },
      { choices: [{ message: { content: 'c' } }], usage: { prompt_tokens: 1.5, completion_tokens: 'many' } },
    );
    assert.deepEqual({ prefill: recording.tokens.prefill, sample: recording.tokens.sample }, { prefill: 120, sample: 30 });
    assert.equal(
      recording.tokens.refused,
      `the policy's prompt_tokens -5 breaks the token count rule (${TOKEN_COUNT_RULE}) and was not counted`,
    );
  });
});
