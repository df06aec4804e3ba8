import { strict as assert } from 'node:assert';
import path from 'node:path';
import type { RewardPreview, RewardPreviewFailure } from '../../../src/core/reward';
import { referenceReward } from '../../../src/core/environments/wordle/referenceReward';
import { canonicalGames } from '../../../src/core/environments/wordle/rewardGames';
import { previewReward } from '../../../src/services/rewardPreview';
import { python } from '../python';

const root = path.resolve(__dirname, '../../..');
const script = path.join(root, 'src/python/reward_harness.py');
const fixture = (name: string) => path.join(root, 'test/fixtures/reward', name);

async function preview(
  name: string,
  options: { entry?: string; answer?: string; timeoutMs?: number; python?: string; signal?: AbortSignal } = {},
) {
  return previewReward({ python: options.python ?? python, script, file: fixture(name), ...options });
}

function scored(result: RewardPreview | RewardPreviewFailure): RewardPreview {
  assert.ok(result.ok, `expected scores, got ${JSON.stringify(result)}`);
  return result;
}

const reward = (p: RewardPreview, name: string) => p.games.find((g) => g.name === name)!.reward;

/** True while a process with this id exists (a zombie counts: it still has an entry). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('reward: harness with the real python3', function () {
  this.timeout(30_000);

  it('final design: all four invariants hold and solve@1 is 1.55 plus the shaping term', async () => {
    const p = scored((await preview('final_design.py')).result);
    assert.deepEqual(
      p.invariants.filter((i) => !i.ok),
      [],
    );
    assert.ok(Math.abs(reward(p, 'solve@1') - 1.55) <= 0.04, `solve@1 ${reward(p, 'solve@1')}`);
    assert.equal(reward(p, 'no-play'), -1.5);
    assert.equal(p.convention, 'class');
    assert.equal(p.target, 'WordleGame');
    assert.equal(p.line, 82);
  });

  it('the Python final design and the TypeScript reference give the same reward on every game', async () => {
    const p = scored((await preview('final_design.py')).result);
    for (const game of canonicalGames('crane').games) {
      const ts = referenceReward(
        'crane',
        game.guesses.map((guess) => ({ guess, source: game.via === 'text' ? 'text' : 'tool' })),
      );
      assert.ok(Math.abs(ts.reward - reward(p, game.name)) < 1e-9, `${game.name}: ts ${ts.reward} py ${reward(p, game.name)}`);
    }
  });

  it('summed first design: reproduces both published distortions and fails exactly two invariants', async () => {
    const p = scored((await preview('summed_design.py')).result);
    assert.ok(Math.abs(reward(p, 'loss') - 0.49) < 0.005);
    assert.ok(Math.abs(reward(p, 'solve@1') - 0.99) < 0.005);
    assert.ok(Math.abs(reward(p, 'solve@3') - 1.61) < 0.005);
    assert.deepEqual(
      p.invariants.filter((i) => !i.ok).map((i) => i.name),
      ['faster-solve-wins', 'loss-negative'],
    );
    assert.equal(p.invariants.find((i) => i.name === 'loss-negative')!.detail, 'loss scores +0.49: a lost game is rewarded (1 more loss)');
  });

  it('stubs strands, bedrock_agentcore and sagemaker, still scores, and keeps user prints out of the result', async () => {
    const { result, stderr } = await preview('stub_imports.py');
    const p = scored(result);
    assert.deepEqual([...p.stubbed].sort(), ['bedrock_agentcore', 'sagemaker', 'strands']);
    assert.equal(reward(p, 'solve@1'), 1.55);
    assert.match(stderr, /noise on stdout from import time/);
    assert.match(stderr, /guessing crane/);
  });

  it('a forged result line printed by user code is ignored', async () => {
    const { result, stderr } = await preview('forged_result.py');
    const p = scored(result);
    assert.equal(reward(p, 'solve@3'), -3);
    assert.match(stderr, /forged/);
  });

  it('a syntax error points at the user line and column', async () => {
    const { result } = await preview('syntax_error.py');
    assert.equal(result.ok, false);
    assert.deepEqual([result.error, result.line, result.column], ['syntax', 5, 26]);
    assert.match(result.message, /SyntaxError: expected ':'/);
  });

  it('an error while importing points at the failing line', async () => {
    const { result } = await preview('import_error.py');
    assert.equal(result.ok, false);
    assert.deepEqual([result.error, result.line], ['import', 3]);
    assert.match(result.message, /JSONDecodeError/);
  });

  it('an exception in guess() names the game and the line', async () => {
    const { result } = await preview('raises_on_guess.py');
    assert.equal(result.ok, false);
    assert.deepEqual([result.error, result.line, result.game], ['runtime', 7, 'no-play']);
  });

  it('a file without a reward says how to write one', async () => {
    const { result } = await preview('no_reward.py');
    assert.equal(result.ok, false);
    assert.equal(result.error, 'not-found');
    assert.match(result.message, /WordleGame\(answer\).*entry function/);
  });

  it('an entry function is called as function(answer, guesses)', async () => {
    const p = scored((await preview('entry_function.py', { entry: 'score', answer: 'riser' })).result);
    assert.equal(p.convention, 'function');
    assert.equal(p.line, 4);
    assert.equal(p.answer, 'riser');
    assert.equal(reward(p, 'solve@3'), 1.35);
    assert.ok(p.invariants.every((i) => i.ok));
    const missing = (await preview('entry_function.py', { entry: 'nope' })).result;
    assert.equal(missing.ok, false);
    assert.match(missing.message, /No function 'nope'/);
  });

  it('an endless loop times out, and the harness and the process it started are gone', async () => {
    const { result, pid, stderr } = await preview('infinite_loop.py', { timeoutMs: 6500, python });
    assert.equal(result.ok, false);
    assert.equal(result.error, 'timeout');
    assert.match(result.message, /did not finish within 6\.5 s/);
    const helper = Number(/helper pid (\d+)/.exec(stderr)?.[1]);
    assert.ok(pid && helper, `pids ${pid} ${helper}`);
    assert.equal(alive(pid), false, 'harness process still exists');
    // The killed helper is an orphan: init reaps it, which can take a moment.
    for (let waited = 0; alive(helper) && waited < 8000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    assert.equal(alive(helper), false, 'helper process still exists');
  });

  it('cancelling stops the run', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const { result, pid } = await preview('infinite_loop.py', { signal: controller.signal });
    assert.equal(result.ok, false);
    assert.equal(result.error, 'cancelled');
    assert.equal(alive(pid!), false);
  });

  it('a missing interpreter says where to set one', async () => {
    const { result } = await preview('final_design.py', { python: '/nonexistent/python3' });
    assert.equal(result.ok, false);
    assert.equal(result.error, 'spawn');
    assert.match(result.message, /mtrl\.python\.path/);
  });
});
