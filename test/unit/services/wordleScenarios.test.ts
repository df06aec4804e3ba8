import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseScenarioFile, toolCallsOf } from '../../../src/core/reward';
import { referenceReward } from '../../../src/core/environments/wordle/referenceReward';
import { packScenarioFile, previewScenarios, type ScenarioOutcome, type ScenarioPreview } from '../../../src/services/rewardScenarios';
import { python } from '../python';
import { ceiling } from '../../host/lib/ceiling';

const root = path.resolve(__dirname, '../../..');
const script = path.join(root, 'src/python/transcript_reward.py');
const fixture = (name: string) => path.join(root, 'test/fixtures/reward', name);

/** A Wordle reward file previewed the way the lens and `mtrl reward FILE.py` do: on the scenarios its pack offers. */
async function preview(name: string, options: { timeoutMs?: number; python?: string; signal?: AbortSignal } = {}) {
  const offered = packScenarioFile(fixture(name), readFileSync(fixture(name), 'utf8'));
  assert.ok(offered, `no scenarios offered for ${name}`);
  return previewScenarios(offered.path, { python, script, file: offered.file, ...options });
}

function scored(result: ScenarioOutcome['result']): ScenarioPreview {
  assert.ok(result.ok, `expected scores, got ${JSON.stringify(result)}`);
  return result;
}

const reward = (p: ScenarioPreview, name: string) => p.scored.find((s) => s.name === name)!.reward;
const broken = (p: ScenarioPreview) => p.results.filter((r) => !r.ok).map((r) => r.name);

/** True while a process with this id exists (a zombie counts: it still has an entry). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('reward: a Wordle reward on the scenarios its pack offers (real python3)', function () {
  it("offers the pack's scenarios read once, the same file as the text it would save reads back to", () => {
    const offered = packScenarioFile(fixture('final_design.py'), readFileSync(fixture('final_design.py'), 'utf8'));
    assert.ok(offered);
    assert.ok(offered.file.scenarios.length > 5, `${offered.file.scenarios.length} scenarios`);
    assert.deepEqual(offered.file, parseScenarioFile(offered.text).file);
  });

  this.timeout(ceiling(30_000));

  it('final design: every expectation holds and solve@1 is 1.55 plus the shaping term', async () => {
    const p = scored((await preview('final_design.py')).result);
    assert.deepEqual(broken(p), []);
    assert.deepEqual(p.failures, {});
    assert.ok(Math.abs(reward(p, 'solve@1') - 1.55) <= 0.04, `solve@1 ${reward(p, 'solve@1')}`);
    assert.equal(reward(p, 'no-play'), -1.5);
    assert.deepEqual([p.convention, p.target, p.line, p.rewardLine], ['class', 'WordleGame', 25, 82]);
    assert.equal(p.rewardFile, fixture('final_design.py'));
  });

  it('the Python final design and the TypeScript reference give the same reward on every scenario', async () => {
    const p = scored((await preview('final_design.py')).result);
    assert.equal(p.scored.length, 11);
    for (const s of p.scored) {
      const ts = referenceReward(
        'crane',
        toolCallsOf(s).map((c) => ({
          guess: (c.arguments as { guess: string }).guess,
          source: c.asText ? ('text' as const) : ('tool' as const),
        })),
      );
      assert.ok(Math.abs(ts.reward - s.reward) < 1e-9, `${s.name}: ts ${ts.reward} py ${s.reward}`);
      assert.ok(Math.abs(ts.outcome - s.components!.outcome) < 1e-9, `${s.name}: outcome ts ${ts.outcome} py ${s.components!.outcome}`);
    }
  });

  it('summed first design: reproduces both published distortions and breaks the expectations that name them', async () => {
    const p = scored((await preview('summed_design.py')).result);
    assert.ok(Math.abs(reward(p, 'loss') - 0.49) < 0.005);
    assert.ok(Math.abs(reward(p, 'solve@1') - 0.99) < 0.005);
    assert.ok(Math.abs(reward(p, 'solve@3') - 1.61) < 0.005);
    assert.deepEqual(broken(p), [
      'solve@1 > solve@2',
      'solve@2 > solve@3',
      'solve@3 > solve@4',
      'solve@4 > solve@5',
      'solve@5 > solve@6',
      'loss < 0',
      'loss-contradicting < 0',
      'solve@3-raw-text > solve@4',
      'fewer-turns-no-worse',
      'outcome-decides-order',
    ]);
    assert.equal(p.results.find((r) => r.name === 'loss < 0')!.detail, 'loss 0.49 is not < 0');
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
    assert.ok(!result.ok && result.error === 'syntax');
    assert.deepEqual(['line' in result && result.line, 'column' in result && result.column], [5, 26]);
    assert.match(result.message, /SyntaxError: expected ':'/);
  });

  it('an error while importing points at the failing line', async () => {
    const { result } = await preview('import_error.py');
    assert.ok(!result.ok && result.error === 'import');
    assert.equal('line' in result && result.line, 3);
    assert.match(result.message, /JSONDecodeError/);
  });

  it('an exception in guess() is that scenario failing at the user line; the others are still scored', async () => {
    const p = scored((await preview('raises_on_guess.py')).result);
    assert.deepEqual(p.failures['no-play'].line, 7);
    assert.match(p.failures['no-play'].message, /Error/);
    assert.ok(p.scored.some((s) => s.name === 'solve@1'));
  });

  it('a file whose reward no pack recognizes gets no scenarios', () => {
    assert.equal(packScenarioFile(fixture('no_reward.py'), readFileSync(fixture('no_reward.py'), 'utf8')), undefined);
  });

  it('an endless loop times out, and the process it started is gone', async () => {
    const { result, stderr } = await preview('infinite_loop.py', { timeoutMs: 6500, python });
    assert.ok(!result.ok && result.error === 'timeout');
    assert.match(result.message, /did not finish within 6\.5 s/);
    const helper = Number(/helper pid (\d+)/.exec(stderr)?.[1]);
    assert.ok(helper, stderr);
    // The killed helper is an orphan: init reaps it, which can take a moment.
    for (let waited = 0; alive(helper) && waited < 8000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    assert.equal(alive(helper), false, 'helper process still exists');
  });

  it('cancelling stops the run', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const { result } = await preview('infinite_loop.py', { signal: controller.signal });
    assert.ok(!result.ok && result.error === 'cancelled');
  });

  it('a missing interpreter says where to set one', async () => {
    const { result } = await preview('final_design.py', { python: '/nonexistent/python3' });
    assert.ok(!result.ok && result.error === 'spawn');
    assert.match(result.message, /mtrl\.python\.path/);
  });
});
