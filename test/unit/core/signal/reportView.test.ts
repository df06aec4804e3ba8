import { strict as assert } from 'node:assert';
import { signalReport } from '../../../../src/core/signal/report';
import { signalLevel, signalView, type SignalCheckShown, type SignalView } from '../../../../src/core/signal/reportView';
import type { Transcript } from '../../../../src/core/transcript/model';

/** Tasks given as their rollouts' rewards, G each: a support agent's partial-credit rewards as much as Wordle's. */
const batch = (tasks: Record<string, number[]>): Transcript[] =>
  Object.entries(tasks).flatMap(([task, rewards]) =>
    rewards.map((reward, i) => ({
      id: `${task}-${i}`,
      groupKey: task,
      reward,
      status: 'completed',
      source: 'trace',
      task: { prompt: task },
      turns: [],
    })),
  );

const shown = (tasks: Record<string, number[]>, more: Partial<SignalCheckShown> = {}): SignalCheckShown => ({
  title: 'support-rollouts.jsonl',
  status: 'done',
  report: signalReport(batch(tasks)),
  hasRollouts: true,
  ...more,
});

function report(view: SignalView): Extract<SignalView, { kind: 'report' }> {
  assert.equal(view.kind, 'report', JSON.stringify(view));
  return view as Extract<SignalView, { kind: 'report' }>;
}

describe('learning signal: what the view shows', () => {
  it('says in words what the zero-advantage share means: always-solved tasks teach nothing', () => {
    // 7 of 17 tasks solved by every rollout (41 %), the rest split.
    const tasks: Record<string, number[]> = {};
    for (let i = 0; i < 7; i++) tasks[`easy${i}`] = [1, 1, 1, 1];
    for (let i = 0; i < 10; i++) tasks[`mixed${i}`] = [1, 0, 0.5, 1];
    const v = report(signalView(shown(tasks)));
    assert.equal(v.headline, '41 % of tasks have zero advantage (7 of 17 groups)');
    assert.equal(v.meaning[0], '41 % of tasks are solved by every rollout: they teach nothing.');
    assert.match(v.meaning.at(-1)!, /spends 41 % of its rollouts on groups with zero advantage/);
    assert.equal(v.level, 'warn');
    assert.match(v.recommendations[0], /Drop them or make them harder/);
  });

  it('a difficulty bar per number of successes, 0 to G, with the all-or-none ends marked and heights against the tallest', () => {
    const v = report(signalView(shown({ a: [1, 1, 1, 1], b: [0, 0, 0, 0], c: [1, 0, 1, 0], d: [1, 0, 0.5, 0.25], e: [0, 1, 1, 0] })));
    assert.deepEqual(
      v.difficulty.map((b) => [b.label, b.count, b.height, !!b.extreme]),
      [
        ['0/4', 1, 0.5, true],
        ['1/4', 1, 0.5, false],
        ['2/4', 2, 1, false],
        ['3/4', 0, 0, false],
        ['4/4', 1, 0.5, true],
      ],
    );
    assert.equal(v.difficulty[2].title, '2 tasks solved by 2 of 4 rollouts');
    assert.equal(
      v.difficultyNote,
      'Tasks by how many of their 4 rollouts succeeded (reward ≥ 1); the highlighted ends, none or all, usually teach nothing.',
    );
  });

  it('the reward histogram has a bar per bin that together count every rollout; one bar when every reward is equal', () => {
    const spread = report(signalView(shown({ a: [0, 0.25, 0.5, 1], b: [1, 0.75, 0.5, 0] })));
    assert.equal(spread.rewards.length, 10);
    assert.equal(
      spread.rewards.reduce((n, b) => n + b.count, 0),
      8,
    );
    // Labelled by their range, to one decimal for bins a tenth wide (the top bar, which holds 1.0, reads 0.9–1).
    assert.deepEqual(
      spread.rewards.map((b) => b.label),
      ['0–0.1', '0.1–0.2', '0.2–0.3', '0.3–0.4', '0.4–0.5', '0.5–0.6', '0.6–0.7', '0.7–0.8', '0.8–0.9', '0.9–1'],
    );
    assert.equal(spread.rewards[0].title, '2 rollouts with a reward of 0–0.10');
    const flat = report(signalView(shown({ a: [1, 1], b: [1, 1] })));
    assert.deepEqual(
      flat.rewards.map((b) => [b.label, b.count]),
      [['1', 4]],
    );
    assert.equal(flat.headline, '100 % of tasks have zero advantage (2 of 2 groups)');
    assert.equal(flat.level, 'bad');
  });

  it('names never-solved and same-partial-credit groups apart, and the spread, failures and group-size estimates as figures', () => {
    const r = signalReport([
      ...batch({ hard: [0, 0, 0, 0], partial: [0.5, 0.5, 0.5, 0.5], split: [1, 0, 1, 0] }),
      { id: 'x', groupKey: 'split2', status: 'error', source: 'trace', task: { prompt: 'x' }, turns: [] },
      ...batch({ split2: [1, 1, 0] }),
    ]);
    // Four groups (hard, partial, split, split2), one of each kind: 25 % each.
    const v = report(signalView({ title: 't', status: 'done', report: r, hasRollouts: false }));
    assert.deepEqual(v.meaning.slice(0, 3), [
      "1 rollout of 16 failed: their reward 0 is the agent's failure, not the task's difficulty.",
      '25 % of tasks are never solved, every rollout scoring the same: they teach nothing.',
      '25 % of tasks give every rollout the same partial credit: the reward does not tell them apart.',
    ]);
    const figures = Object.fromEntries(v.figures.map((f) => [f.label, f.value]));
    assert.equal(figures['Failed rollouts'], '1');
    assert.equal(figures['Tasks (groups)'], '4');
    assert.equal(figures['Mean within-group spread'], r.meanWithinGroupSpread!.toFixed(3));
    assert.deepEqual(
      v.atGroupSize.map((g) => g.label),
      ['G = 2', 'G = 4', 'G = 8', 'G = 16'],
    );
    assert.equal(v.hasRollouts, false);
  });

  it("a pack's own verdict that differs from the threshold's is a figure beside it, absent when none differs", () => {
    const rollouts = batch({ crane: [1.3, 1.1, 0] });
    rollouts[1] = { ...rollouts[1], env: { pack: 'wordle', solved: true } };
    const r = signalReport(rollouts, 1.25);
    assert.deepEqual(r.packVerdicts, { solved_in_game_below_threshold: 1 });
    const figures = Object.fromEntries(
      report(signalView({ title: 't', status: 'done', report: r, hasRollouts: false })).figures.map((f) => [f.label, f.value]),
    );
    assert.equal(figures['Solved in game, below threshold'], '1');
    assert.equal(signalReport(batch({ crane: [1.3, 1.1, 0] }), 1.25).packVerdicts, undefined);
  });

  it('tokens per rollout, the projected training cost and the check’s own cost appear only when the check has them', () => {
    const tasks = { a: [1, 0], b: [0, 1] };
    const without = report(signalView(shown(tasks))).figures.map((f) => f.label);
    assert.ok(!without.includes('Tokens per rollout') && !without.includes('Projected training cost'));
    const v = report(
      signalView(
        shown(tasks, {
          tokensPerRollout: { prefill: 4660.4, sample: 1514 },
          projectedCost: { rollouts: 12_800, low: 95.5, high: 143.25 },
          checkCost: { low: 1.2, high: 1.8 },
        }),
      ),
    );
    const figures = Object.fromEntries(v.figures.map((f) => [f.label, f.value]));
    assert.equal(figures['Tokens per rollout'], '4,660 prefill, 1,514 sample');
    assert.equal(figures['Projected training cost'], '$95.50 – $143.25');
    assert.equal(figures['Cost of this check'], '$1.20 – $1.80');
  });

  it('a running, failed or empty check is a sentence, never an empty report', () => {
    assert.deepEqual(signalView({ title: 'job x', status: 'running', hasRollouts: true }), {
      kind: 'running',
      title: 'job x',
      hasRollouts: true,
      message: 'The check is still playing its rollouts: the report appears when it ends.',
    });
    const failed = signalView({ title: 'job x', status: 'failed', error: 'The evaluation job failed: AccessDenied.', hasRollouts: false });
    assert.equal(failed.kind, 'failed');
    assert.equal(failed.kind === 'failed' && failed.message, 'The evaluation job failed: AccessDenied.');
    const empty = signalView({ title: 'empty.log', status: 'done', report: signalReport([]), hasRollouts: true });
    assert.equal(empty.kind, 'empty');
    assert.match(empty.kind === 'empty' ? empty.message : '', /No rollouts were found/);
  });

  it('while the first read runs it says so; a report already shown stays while it is read again', () => {
    assert.equal(signalView({ title: 'x.log', status: 'running', hasRollouts: false }, true).kind, 'reading');
    assert.equal(signalView(shown({ a: [1, 0] }), true).kind, 'report');
  });

  it('without groups of two or more the headline says a signal needs groups', () => {
    const v = report(signalView(shown({ a: [1], b: [0] })));
    assert.equal(v.headline, 'No task has two or more rollouts: a learning signal needs groups.');
    assert.equal(v.level, 'bad');
  });

  it('thin evidence is said under the headline and a good share shows as a warning, not as ready', () => {
    const v = report(signalView(shown({ a: [1, 0], b: [0, 1] })));
    assert.equal(v.headline, '0 % of tasks have zero advantage (0 of 2 groups)');
    assert.equal(v.level, 'warn');
    assert.ok(v.meaning.some((m) => /^Thin evidence: 2 tasks and 4 rollouts/.test(m)));
    assert.ok(v.recommendations.every((r) => !/ready to train\./.test(r)));
  });

  it('levels: under a fifth flat is good, from half on bad', () => {
    assert.deepEqual([0, 0.19, 0.2, 0.49, 0.5, 1].map(signalLevel), ['good', 'good', 'warn', 'warn', 'bad', 'bad']);
  });

  it('the difficulty histogram counts the tasks "solved" counts: a one-rollout task too, and says which tasks it leaves out', () => {
    const single = report(signalView(shown({ a: [1] })));
    assert.deepEqual(
      single.difficulty.map((b) => [b.label, b.count]),
      [
        ['0/1', 0],
        ['1/1', 1],
      ],
    );
    const mixed = signalReport(batch({ a: [1, 0], b: [1, 1], c: [1] }));
    assert.deepEqual(mixed.solvedBy, [0, 1, 1]);
    assert.equal(mixed.tasksOfOtherSize, 1);
    assert.match(
      report(signalView(shown({ a: [1, 0], b: [1, 1], c: [1] }))).difficultyNote,
      /1 task with another number of rollouts is not shown\.$/,
    );
  });
});
