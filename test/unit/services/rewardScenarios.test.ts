import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_SCENARIOS } from '../../../src/core/reward/scenarioFile';
import type { Transcript } from '../../../src/core/transcript/model';
import { previewScenarios, rescoreTranscripts, type ScenarioOutcome, type ScenarioPreview } from '../../../src/services/rewardScenarios';
import { python } from '../python';
import { ceiling } from '../../host/lib/ceiling';

const root = path.resolve(__dirname, '../../..');
const script = path.join(root, 'src/python/transcript_reward.py');
const fixture = (name: string) => path.join(root, 'test/fixtures/workspace/reward-scenarios', name);
const options = { python, script, timeoutMs: ceiling(10_000) };

function ok(outcome: ScenarioOutcome): ScenarioPreview {
  assert.ok(outcome.result.ok, `expected scores, got ${JSON.stringify(outcome.result)} ${outcome.stderr}`);
  return outcome.result;
}
const rewards = (p: ScenarioPreview) => Object.fromEntries(p.scored.map((s) => [s.name, s.reward]));

/** A support rollout: its recorded reward and the actions it took, one tool call a turn. */
function rollout(id: string, groupKey: string, recorded: number, actions: string[]): Transcript {
  return {
    id,
    groupKey,
    reward: recorded,
    status: 'completed',
    source: 'trace',
    task: { prompt: `ticket ${groupKey}` },
    turns: actions.map((action) => ({ toolCalls: [{ name: 'take_support_action', arguments: JSON.stringify({ action }) }] })),
  };
}
/** A FIFO made with mkfifo(1), which every Linux and macOS machine has. */
const makeFifo = (at: string) => execFileSync('mkfifo', [at]);
const FULL = ['check_outage', 'inspect_router_lights', 'check_account_config', 'reprovision_account'];

/** Three support groups, recorded rewards against what the game now gives, one rollout calling an unknown tool (c5). */
function threeGroups(): Transcript[] {
  return [
    // Group A: recorded all 1.0 (no signal); the game gives 1, 0.25, 0.5, 1.
    rollout('a1', 'A', 1, FULL),
    rollout('a2', 'A', 1, FULL.slice(0, 1)),
    rollout('a3', 'A', 1, FULL.slice(0, 2)),
    rollout('a4', 'A', 1, FULL),
    // Group B: recorded 0.25, 0.5, 0.25, 1 (signal); the game gives 0.5 to all four (none).
    ...[0.25, 0.5, 0.25, 1].map((r, i) => rollout(`b${i + 1}`, 'B', r, FULL.slice(0, 2))),
    // Group C: recorded all 0 (no signal); the game gives 0, 0.75, 0, 0.25; and one call to an unknown tool.
    rollout('c1', 'C', 0, []),
    rollout('c2', 'C', 0, FULL.slice(0, 3)),
    rollout('c3', 'C', 0, ['close_ticket']),
    rollout('c4', 'C', 0, FULL.slice(0, 1)),
    { ...rollout('c5', 'C', 0, []), turns: [{ toolCalls: [{ name: 'escalate', arguments: '{}' }] }] },
  ];
}

const spec = {
  form: 'class' as const,
  file: 'support_env.py',
  class: 'SupportGame',
  init: { ticket: 'prompt' },
  tools: { take_support_action: { method: 'apply', arguments: ['action'] } },
  score: 'reward',
};

describe('reward scenarios: scored by the real python3', function () {
  this.timeout(ceiling(60_000));

  it('class form: the support game replayed call by call gives partial credit, every expectation kept', async () => {
    const p = ok(await previewScenarios(fixture('support.mtrl-reward.json'), options));
    assert.deepEqual(rewards(p), { ideal: 1, shortcut: 0.25, 'gave-up': 0 });
    assert.equal(p.convention, 'class');
    assert.equal(p.line, 6, 'the class line, where the lens stands');
    assert.ok(p.results.every((r) => r.ok));
  });

  it('function form: reward(task, transcript) over the normalized transcript, {"reward": x} accepted', async () => {
    const p = ok(await previewScenarios(fixture('math.mtrl-reward.json'), options));
    assert.deepEqual(rewards(p), { ideal: 1, 'worked-wrong': 0.1, silent: 0 });
    assert.equal(p.line, 5);
    assert.ok(p.results.every((r) => r.ok));
  });

  it('a shortcut scoring above the ideal is flagged at the reward property, naming the pair', async () => {
    const p = ok(await previewScenarios(fixture('bad-support.mtrl-reward.json'), options));
    assert.equal(p.rewardLine, 17, 'the line of `def reward` under @property');
    const broken = p.results.filter((r) => !r.ok);
    assert.deepEqual(
      broken.map((r) => r.name),
      ['ideal > shortcut', 'finished-beats-unfinished'],
    );
    assert.deepEqual(broken[0].scenarios, ['ideal', 'shortcut']);
  });

  it('a scenario the environment cannot replay is listed with its reason; the others are still scored', async () => {
    const text = JSON.stringify({
      reward: {
        file: 'support_env.py',
        class: 'SupportGame',
        init: { ticket: 'prompt' },
        tools: { take_support_action: { method: 'apply', arguments: ['action'] } },
      },
      task: 'a ticket',
      scenarios: {
        fine: [{ take_support_action: { action: 'check_outage' } }],
        alien: [{ frobnicate: {} }],
        'after-close': [{ take_support_action: { action: 'close_ticket' } }, { take_support_action: { action: 'check_outage' } }],
      },
    });
    const p = ok(await previewScenarios(fixture('inline.mtrl-reward.json'), { ...options, text }));
    assert.deepEqual(rewards(p), { fine: 0.25 });
    assert.match(p.failures.alien.message, /unknown tool 'frobnicate' \(the scenario file maps take_support_action\)/);
    assert.match(p.failures['after-close'].message, /ValueError: the ticket is closed/);
    assert.equal(p.failures['after-close'].line, 14, "the user's line that raised");
  });

  it('a problem in the file is reported with its path before any Python runs', async () => {
    const { result } = await previewScenarios(fixture('x.mtrl-reward.json'), {
      ...options,
      text: '{"reward": {"file": "a.py"}, "scenarios": {}}',
    });
    assert.ok(!result.ok && result.error === 'file');
    assert.deepEqual(
      result.problems.map((p) => p.path),
      ['reward', 'scenarios'],
    );
  });

  it('a reward "file" outside the scenario’s folder, or not a regular file, is refused before any Python runs', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-scenarios-'));
    mkdirSync(path.join(dir, 'sub'));
    symlinkSync('/etc/hostname', path.join(dir, 'link.py'));
    const preview = (file: string) =>
      previewScenarios(path.join(dir, 'sub/x.mtrl-reward.json'), {
        ...options,
        python: '/nonexistent/python',
        text: JSON.stringify({ reward: { file, function: 'reward' }, task: { prompt: 'p' }, scenarios: { a: { tool_calls: [] } } }),
      });
    for (const [file, said] of [
      ['/etc/hostname', /"\/etc\/hostname" is outside the scenario file's folder/],
      ['../link.py', /"\.\.\/link\.py" is outside the scenario file's folder/],
      ['/dev/zero', /is outside the scenario file's folder/],
      ['.', /"\." is outside the scenario file's folder/],
      ['missing.py', /"missing\.py" does not exist beside the scenario file/],
    ] as const) {
      const { result } = await preview(file);
      assert.ok(!result.ok && result.error === 'file', `${file}: ${JSON.stringify(result)}`);
      assert.match(result.message, said);
      assert.doesNotMatch(result.message, /Python was not found/);
      // The CLI prints "<file>: <path>: <problem>": the problem must not name the file and path again.
      assert.deepEqual(result.problems, [
        { path: 'reward.file', message: result.message.replace('x.mtrl-reward.json: reward.file: ', '') },
      ]);
      assert.doesNotMatch(result.problems[0].message, /x\.mtrl-reward\.json/);
    }
    makeFifo(path.join(dir, 'sub/pipe.py'));
    const { result } = await preview('pipe.py');
    assert.match(!result.ok ? result.message : '', /"pipe\.py" is not a regular file/);
  });

  it('more scenarios than a file may hold (10,000) are refused with a sentence, before any Python runs', async () => {
    const scenarios = Object.fromEntries(Array.from({ length: MAX_SCENARIOS + 1 }, (_, i) => [`s${i}`, { tool_calls: [] }]));
    const { result } = await previewScenarios(fixture('x.mtrl-reward.json'), {
      ...options,
      text: JSON.stringify({ reward: { file: 'constant_reward.py', function: 'reward' }, scenarios }),
    });
    assert.ok(!result.ok && result.error === 'file');
    assert.match(result.message, /10,001 scenarios: a file holds at most 10,000/);
  });

  it('what-if: zero-advantage groups before and after match a hand count; unreplayable rollouts are listed', async () => {
    const transcripts = threeGroups();
    const outcome = await rescoreTranscripts(fixture('support_env.py'), spec, transcripts, options);
    assert.ok('report' in outcome, JSON.stringify(outcome));
    const { report } = outcome;
    assert.equal(report.compared, 12);
    assert.deepEqual(
      report.unreplayable.map((u) => u.id),
      ['c5'],
    );
    // By hand: before A and C are flat (2 of 3); after only B is (1 of 3).
    assert.deepEqual([report.before.zeroAdvantageGroups, report.before.groups], [2, 3]);
    assert.deepEqual([report.after.zeroAdvantageGroups, report.after.groups], [1, 3]);
  });

  it('what-if with a constant reward: every group has zero advantage', async () => {
    const transcripts = ['A', 'B', 'C'].flatMap((g) => [0, 0.5, 1].map((r, i) => rollout(`${g}${i}`, g, r, FULL.slice(0, i))));
    const outcome = await rescoreTranscripts(
      fixture('constant_reward.py'),
      { form: 'function', file: 'constant_reward.py', function: 'reward' },
      transcripts,
      options,
    );
    assert.ok('report' in outcome);
    assert.equal(outcome.report.after.zeroAdvantageShare, 1);
    assert.equal(outcome.report.before.zeroAdvantageShare, 0);
  });

  it('what-if runs Python a batch at a time: the same report, a failure in a later batch named by its rollout', async () => {
    const whole = await rescoreTranscripts(fixture('support_env.py'), spec, threeGroups(), options);
    const batched = await rescoreTranscripts(fixture('support_env.py'), spec, threeGroups(), options, 5);
    assert.ok('report' in whole && 'report' in batched, JSON.stringify(batched));
    assert.deepEqual(batched.report, whole.report);
    assert.deepEqual(
      batched.report.unreplayable.map((u) => u.id),
      ['c5'],
    );
  });

  it("what-if on 20,000 rollouts that each fail gives every failure (one run's result line would pass the kept output)", async () => {
    const unknown = (i: number) => ({
      ...rollout(`u${i}`, `G${i % 500}`, 0, []),
      turns: [{ toolCalls: [{ name: 'escalate', arguments: '{}' }] }],
    });
    const outcome = await rescoreTranscripts(
      fixture('support_env.py'),
      spec,
      Array.from({ length: 20_000 }, (_, i) => unknown(i)),
      options,
    );
    assert.ok('report' in outcome, JSON.stringify(outcome).slice(0, 500));
    assert.equal(outcome.report.unreplayable.length, 20_000);
  });

  it('what-if with a reward that does not load says so once, whatever the batches', async () => {
    const outcome = await rescoreTranscripts(fixture('support_env.py'), { ...spec, class: 'Missing' }, threeGroups(), options, 2);
    assert.ok('failure' in outcome);
    assert.equal(outcome.failure.message, "No environment class 'Missing' in support_env.py.");
  });
});
