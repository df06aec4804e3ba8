import { strict as assert } from 'node:assert';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { ReplayData } from '../../../src/core/rollouts';
import type { Transcript } from '../../../src/core/transcript/model';
import { localReader, readRollouts } from '../../../src/services/rollouts';
import { ceiling } from '../../host/lib/ceiling';

// One set of rollouts, every surface: `mtrl rollouts`, `mtrl signal`, the board (the same reader and pipeline the
// panel streams through) and the what-if `mtrl reward --rescore` give the same solved, group and zero-advantage counts.

const root = path.resolve(__dirname, '../../..');
const realRun = path.join(root, 'test/fixtures/real-run');

async function mtrl(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

interface Counts {
  solved: number;
  groups: number;
  stepUnknownGroups: number;
  zeroAdvantage: number;
}

async function everySurface(source: string): Promise<Record<string, Partial<Counts>>> {
  const rollouts = JSON.parse((await mtrl('rollouts', source, '--json')).out);
  const signal = JSON.parse((await mtrl('signal', source, '--json')).out);
  const board = new ReplayData(await readRollouts(localReader(source), new AbortController().signal)).summary({});
  // The what-if's "before" is the recorded rewards: its zero-advantage groups are the ones GRPO saw.
  const whatIf = await mtrl(
    'reward',
    path.join(root, 'test/fixtures/demo-workspace/refund.mtrl-reward.json'),
    '--rescore',
    source,
    '--json',
  );
  assert.equal(whatIf.code, 0, whatIf.err);
  const before = JSON.parse(whatIf.out).before;
  return {
    rollouts: {
      solved: rollouts.solved,
      groups: rollouts.groups,
      stepUnknownGroups: rollouts.grpo_groups.pooled,
      zeroAdvantage: rollouts.grpo_groups.zero_advantage,
    },
    signal: {
      solved: signal.solved,
      groups: signal.groups + signal.singleRolloutGroups,
      stepUnknownGroups: signal.stepUnknownGroups,
      zeroAdvantage: signal.zeroAdvantage.groups,
    },
    board: {
      solved: board.solved,
      groups: board.groups,
      stepUnknownGroups: board.stepUnknownGroups,
      zeroAdvantage: board.zeroAdvantageGroups,
    },
    // Like the signal report's, its groups are the ones of two or more rollouts.
    whatIf: { groups: before.groups + signal.singleRolloutGroups, zeroAdvantage: before.zeroAdvantageGroups },
  };
}

function assertSame(surfaces: Awaited<ReturnType<typeof everySurface>>, expected: Counts): void {
  for (const [name, counts] of Object.entries(surfaces))
    for (const [key, value] of Object.entries(counts))
      assert.equal(value, expected[key as keyof Counts], `${name}: ${key} (${JSON.stringify(surfaces)})`);
}

/** The real support run's first four tickets, 4 rollouts each, saved as a local signal check keeps them (no `solved`, no step). */
function supportSet(dir: string): string {
  // The CSV's one column, each prompt quoted.
  const prompts = readFileSync(path.join(realRun, 'data/training_prompts.csv'), 'utf8')
    .split('\n')
    .slice(1, 5)
    .map((line) => line.replace(/^"|"$/g, '').replace(/""/g, '"'));
  // The reproduction: 16 rollouts, 5 at the threshold; two flat groups (always solved, the same partial credit).
  const rewards = [
    [1, 1, 1, 1],
    [1, 0.75, 0.5, 0],
    [0.75, 0.75, 0.75, 0.75],
    [0, 0.25, 0.5, 0.75],
  ];
  const lines = prompts.flatMap((prompt, row) =>
    rewards[row].map((reward, i) => {
      const t: Transcript = {
        id: `ticket-${row}-${i}`,
        groupKey: `row-${row}`,
        task: { prompt, rowIndex: row },
        reward,
        status: 'completed',
        source: 'trace',
        turns: [{ toolCalls: [{ name: 'take_support_action', arguments: { action: 'check_outage' }, result: '{"state": "checked"}' }] }],
      };
      return JSON.stringify(t);
    }),
  );
  const file = path.join(dir, 'support.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** Wordle records over two steps and none, beside the real run's Wordle trace (reward 1.3, its last result the solve line). */
function wordleSet(dir: string): string {
  const record = (id: string, answer: string, reward: number, guesses: string[], step?: number) =>
    JSON.stringify({ mtrl_rollout: 1, trajectory_id: id, answer, reward, step, turns: guesses.map((guess) => ({ guess })) });
  const lines = [
    record('s1-a', 'crane', 1.3, ['slate', 'crane'], 1),
    record('s1-b', 'crane', 1.3, ['slate', 'crane'], 1),
    record('s1-c', 'ghost', -0.5, ['slate', 'pride'], 1),
    record('s1-d', 'ghost', 1.2, ['slate', 'ghost'], 1),
    record('s2-a', 'crane', 1.1, ['slate', 'trace', 'crane'], 2),
    record('s2-b', 'crane', -0.5, ['slate'], 2),
    record('u-a', 'plumb', -1.5, []),
    record('u-b', 'plumb', -1.5, []),
  ];
  writeFileSync(path.join(dir, 'run.log'), lines.join('\n') + '\n');
  copyFileSync(path.join(realRun, 'traces/wordle_trace.raw.json'), path.join(dir, 'wordle_trace.json'));
  return dir;
}

describe('the same rollouts give the same counts on every surface (one truth, core/rollouts/verdict.ts)', function () {
  this.timeout(ceiling(120_000));

  it('a support set kept as a local check keeps them (no step): solved at the threshold, not 0', async () => {
    const file = supportSet(mkdtempSync(path.join(tmpdir(), 'mtrl-same-')));
    assertSame(await everySurface(file), { solved: 5, groups: 4, stepUnknownGroups: 4, zeroAdvantage: 2 });
    const text = (await mtrl('rollouts', file)).out;
    assert.match(text, /solved 5 \(31\.3%, reward ≥ 1\), partial credit 9/);
    assert.match(text, /2 of 4 groups with all rewards equal \(advantage 0\) \(2 of them step unknown\)/);
    assert.doesNotMatch(text, /moves to solve/, 'a support agent has tool calls, not moves');
    const strict = JSON.parse((await mtrl('rollouts', file, '--success-threshold', '0.75', '--json')).out);
    assert.equal(strict.solved, 11, '--success-threshold judges saved transcripts too');
  });

  it('a Wordle set over two steps and none: the 1.3 solve is solved, step-unknown groups counted and labelled', async () => {
    const dir = wordleSet(mkdtempSync(path.join(tmpdir(), 'mtrl-same-')));
    // Groups: crane@1, ghost@1, crane@2, plumb@? and the trace's CRANE@? (a single rollout).
    assertSame(await everySurface(dir), { solved: 5, groups: 5, stepUnknownGroups: 2, zeroAdvantage: 2 });
    const trace = (await readRollouts(localReader(dir), new AbortController().signal)).find((t) => t.source === 'trace')!;
    assert.deepEqual([trace.reward, trace.solved, trace.env?.solved], [1.3, true, true]);
    // Above the 1.2 and 1.1 solves, the game's own verdict is said beside the threshold's.
    assert.match((await mtrl('rollouts', dir, '--success-threshold', '1.25')).out, /solved 3 \(.*; solved in game, below threshold: 2$/m);
    const strict = JSON.parse((await mtrl('rollouts', dir, '--success-threshold', '1.25', '--json')).out);
    assert.deepEqual([strict.solved, strict.pack_verdict_differs], [3, { solved_in_game_below_threshold: 2 }]);
    // The learning-signal check says the same beside its solved count.
    assert.match(
      (await mtrl('signal', dir, '--success-threshold', '1.25')).out,
      /solved: 3 \(reward ≥ 1\.25\); solved in game, below threshold: 2$/m,
    );
    const signal = JSON.parse((await mtrl('signal', dir, '--success-threshold', '1.25', '--json')).out);
    assert.deepEqual([signal.solved, signal.packVerdicts], [3, { solved_in_game_below_threshold: 2 }], 'the same key as mtrl rollouts');
  });

  it('a set without steps (the real run’s support traces): one partial-credit rollout, nothing flat', async () => {
    const file = path.join(realRun, 'traces/support_traces.batchGet.json');
    assertSame(await everySurface(file), { solved: 1, groups: 1, stepUnknownGroups: 1, zeroAdvantage: 0 });
    const board = new ReplayData(await readRollouts(localReader(file), new AbortController().signal));
    assert.deepEqual(
      board.rolloutsIn(0, {}).map((r) => [r.reward, r.outcome]),
      [
        [1, 'solved'],
        [0.75, 'partial'],
      ],
    );
    assert.equal(board.groups({}, 0, 1).rows[0].step, undefined);
  });
});
