import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';

// `mtrl rollouts` on MLflow trace files as a real user has them: a folder of raw `traces.json` artifacts.

const fixtures = path.resolve(__dirname, '../../fixtures/real-run');

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['rollouts', ...argv], { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A folder of artifacts laid out as S3 holds them: one folder per trace, each with its traces.json. */
function artifactFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-traces-'));
  for (const [name, trace] of [
    ['support_traces.rollout1.raw.json', 'tr-1'],
    ['support_traces.rollout2.raw.json', 'tr-2'],
    ['wordle_trace.raw.json', 'tr-3'],
  ]) {
    mkdirSync(path.join(dir, trace, 'artifacts'), { recursive: true });
    copyFileSync(path.join(fixtures, 'traces', name), path.join(dir, trace, 'artifacts', 'traces.json'));
  }
  return dir;
}

describe('mtrl rollouts on MLflow trace files', () => {
  it('a folder of raw traces.json artifacts: the right groups, rewards, tool calls and action table', async () => {
    const dir = artifactFolder();
    const { code, out, err } = await run(dir, '--json', '--data', path.join(fixtures, 'data/evaluation_prompts.csv'));
    assert.equal(code, 0, err);
    const json = JSON.parse(out);
    assert.equal(json.rollouts, 3);
    assert.equal(json.groups, 2, 'the two support rollouts play one ticket; the Wordle game is its own task');
    assert.deepEqual(json.reward, { mean: Math.round(((1 + 0.75 + 1.3) / 3) * 1e4) / 1e4, min: 0.75, max: 1.3 });
    assert.equal(json.solved, 2, 'support: reward ≥ 1.0; Wordle: its own rule (solved by the guess)');
    assert.deepEqual(json.tool_calls.by_tool, { take_support_action: 8, guess_word: 2 });
    assert.equal(json.grpo_groups.step_unknown_rollouts, 3, 'raw artifacts carry no step');
    const row = (value: string) => json.actions.rows.find((r: { value: string }) => r.value === value);
    assert.deepEqual([json.actions.above_average, json.actions.below_average], [1, 1]);
    assert.deepEqual([row('restart_router').above, row('restart_router').below], [0, 1]);
    assert.deepEqual([row('apply_config_fix').above, row('apply_config_fix').below], [1, 0]);
    assert.equal(json.guesses_to_solve['2'], 1, 'the Wordle pack adds its own summary');

    const text = await run(dir);
    assert.match(text.out, /^3 rollouts in 2 GRPO groups from /m);
    assert.match(text.out, /^ {2}\s*0\.0%\s+100\.0%\s+take_support_action action=restart_router$/m);
  });

  it('--transcripts prints one normalized transcript per line', async () => {
    const { code, out } = await run(path.join(fixtures, 'traces/support_traces.batchGet.json'), '--transcripts');
    assert.equal(code, 0);
    const lines = out.split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((t) => [t.id, t.reward, t.status, t.turns.length, t.solved]),
      [
        ['tr-2207cd19007347c78487c1dbd50d4366', 1, 'completed', 4, true],
        ['tr-0fc6d43da3a04715b1eec7a736596a2a', 0.75, 'completed', 4, false],
      ],
    );
    assert.deepEqual(lines[1].turns[0].toolCalls[0].arguments, { action: 'restart_router' });
    assert.equal((await run(path.join(fixtures, 'traces'), '--json', '--transcripts')).code, 2);
  });

  it('a folder holding a trace both as its artifact and in a batchGet response counts it once', async () => {
    const { out } = await run(path.join(fixtures, 'traces'), '--json');
    assert.equal(JSON.parse(out).rollouts, 3);
  });

  it('--data must be a dataset with a prompt column', async () => {
    const bad = await run(path.join(fixtures, 'traces'), '--data', path.join(fixtures, 'traces/wordle_trace.raw.json'));
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^mtrl rollouts: --data: .* has no row with a text prompt column/);
  });
});
