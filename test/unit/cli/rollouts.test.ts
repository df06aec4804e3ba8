import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { MAX_RECORD_TURNS } from '../../../src/core/transcript/record';
import { readRollouts, streamReader } from '../../../src/services/rollouts';
import { wordleView } from '../core/rollouts/wordleView';

import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { createTrainingJob, trainingDocument, withEmulator } from '../emulator/helpers';
import { ceiling } from '../../host/lib/ceiling';

const record = (id: string) =>
  JSON.stringify({
    mtrl_rollout: 1,
    trajectory_id: id,
    answer: 'crane',
    turns: [{ guess: 'slate' }, { guess: 'crane' }],
    solved: true,
    reward: 1,
  });

async function rollouts(stdin: AsyncIterable<string>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['rollouts', '-', ...args], { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => stdin });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('mtrl rollouts', function () {
  this.timeout(ceiling(60_000));

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

  it('a record with 200,000 turns is read as its first 256, a Wordle game as its first 12 guesses', async () => {
    const turns = Array.from({ length: 200_000 }, () => ({ guess: 'slate' }));
    async function* input() {
      yield JSON.stringify({ mtrl_rollout: 1, trajectory_id: 't', answer: 'crane', turns, solved: false, reward: -1 });
    }
    const { code, out } = await rollouts(input(), '--json');
    assert.equal(code, 0);
    assert.equal(JSON.parse(out).rollouts, 1);
    const [read] = await readRollouts(
      streamReader(async () => input()),
      new AbortController().signal,
    );
    assert.equal(read.turns.length, MAX_RECORD_TURNS);
    assert.equal(wordleView(read).turns.length, 12);
  });
});

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['rollouts', ...argv], {
    out: (t) => void (out += t + '\n'),
    err: (t) => void (err += t + '\n'),
    stdin: () => [],
  });
  return { code, out, err };
}

describe('mtrl rollouts --job', function () {
  this.timeout(ceiling(60_000));

  it('reads a finished job through the endpoint: one GRPO group per task and step, and the per-step numbers', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      const document = trainingDocument({ max_steps: '3', global_batch_size: '32', group_size: '4' });
      await createTrainingJob(aws, 'tiny', document);
      clock.advance(24 * 3_600_000);
      const { code, out } = await run('--job', 'tiny', '--endpoint', emulator.url, '--json');
      assert.equal(code, 0, out);
      const json = JSON.parse(out);
      assert.equal(json.rollouts, 3 * 32 * 4);
      assert.equal(json.groups, 3 * 32, 'a group is one task in one step');
      assert.deepEqual(
        json.steps.map((s: { step: number; rollouts: number; groups: number }) => [s.step, s.rollouts, s.groups]),
        [
          [1, 128, 32],
          [2, 128, 32],
          [3, 128, 32],
        ],
      );
      assert.equal(json.grpo_groups.pooled, 0);
      const overall = json.steps.reduce((sum: number, s: { reward_mean: number }) => sum + s.reward_mean, 0) / 3;
      assert.ok(Math.abs(overall - json.reward.mean) < 1e-3, 'equal steps: the mean of step means is the overall mean');

      const one = JSON.parse((await run('--job', 'tiny', '--step', '2', '--endpoint', emulator.url, '--json')).out);
      assert.equal(one.rollouts, 128);
      assert.deepEqual(
        one.steps.map((s: { step: number }) => s.step),
        [2],
      );
      assert.equal(one.steps[0].reward_mean, json.steps[1].reward_mean);

      const text = await run('--job', 'tiny', '--endpoint', emulator.url);
      assert.match(text.out, /384 rollouts in 96 GRPO groups from job tiny/);
      assert.match(text.out, /step {2}rollouts {2}solve rate {2}reward mean/);
    });
  });

  it('a job whose agent logs no rollout record replays from its MLflow traces, each placed in its step by its time', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      const hp = { max_steps: '3', global_batch_size: '32', group_size: '4' };
      for (const [name, runtime] of [
        ['silent', SEEDED.silentRuntime],
        ['logged', SEEDED.runtime],
      ])
        await createTrainingJob(aws, name, trainingDocument(hp, runtime));
      clock.advance(24 * 3_600_000);
      type Summary = { steps: { step: number; rollouts: number; groups: number; zero_advantage_groups?: number }[] };
      const steps = (json: Summary) => json.steps.map((s) => [s.step, s.rollouts]);
      // Real traces name no row: a game is grouped by the answer its feedback reveals, and a game that never made a
      // valid guess reveals none, so a step's no-play games form one more group than its 32 words.
      const taskGroups = (json: Summary) => json.steps.every((s) => s.groups === 32 || s.groups === 33);

      const text = await run('--job', 'silent', '--endpoint', emulator.url);
      assert.equal(text.code, 0, text.err);
      assert.match(text.out, /^384 rollouts in 9[6-9] GRPO groups from job silent \(its MLflow traces\)$/m);
      const traced = JSON.parse((await run('--job', 'silent', '--endpoint', emulator.url, '--json')).out);
      assert.deepEqual(steps(traced), [
        [1, 128],
        [2, 128],
        [3, 128],
      ]);
      assert.ok(taskGroups(traced), JSON.stringify(traced.steps.map((s: { groups: number }) => s.groups)));
      assert.equal(traced.grpo_groups.pooled, 0);
      assert.ok(traced.solved > 0, 'the traces carry the turns: games are solved');
      // The same job's log alone: only the SDK's reward lines, so no turns; solved is reward ≥ the success threshold (1.0).
      const logOnly = JSON.parse((await run('--job', 'silent', '--from', 'log', '--endpoint', emulator.url, '--json')).out);
      assert.equal(logOnly.rollouts, 384);
      assert.ok(logOnly.solved > 0 && logOnly.solved < 384, `reward ≥ 1.0 counts as solved without turns: ${logOnly.solved}`);
      assert.equal(logOnly.reward.mean, traced.reward.mean, 'the same rewards either way');

      // A job that logs records reads its log by default; its traces, read by choice, tell the same story.
      const fromLog = JSON.parse((await run('--job', 'logged', '--endpoint', emulator.url, '--json')).out);
      const fromTraces = JSON.parse((await run('--job', 'logged', '--from', 'traces', '--endpoint', emulator.url, '--json')).out);
      // Records name no tool (a one-move turn is the tool `action`), traces do: the tool-call names and the action table
      // differ; records name the row, traces only what the feedback reveals: the groups may differ by the no-play games.
      const story = (json: { tool_calls: object; actions?: object; grpo_groups: object; steps: { actions?: object }[] }) => ({
        ...json,
        groups: undefined,
        tool_calls: { ...json.tool_calls, by_tool: undefined },
        actions: undefined,
        grpo_groups: { ...json.grpo_groups, groups: undefined, zero_advantage: undefined },
        steps: json.steps.map((st) => ({ ...st, actions: undefined, groups: undefined, zero_advantage_groups: undefined })),
      });
      assert.deepEqual(story(fromTraces), story(fromLog));
      assert.ok(taskGroups(fromTraces) && fromLog.steps.every((s: { groups: number }) => s.groups === 32));
      assert.equal((await run('--job', 'logged', '--from', 'mlflow')).code, 2);
    });
  });

  it('explains a missing job in one sentence, and rejects bad arguments', async () => {
    await withEmulator({ history: false }, async (emulator) => {
      const missing = await run('--job', 'nope', '--endpoint', emulator.url);
      assert.equal(missing.code, 2);
      assert.match(missing.err, /nope/);
      assert.doesNotMatch(missing.err, /\n\s+at /, 'no stack trace');
    });
    assert.equal((await run('--job', 'x', 'file.log')).code, 2);
    assert.equal((await run('--job', 'x', '--step', 'two')).code, 2);
  });
});
