import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { main } from '../../../../src/cli';
import {
  factsOf,
  FactsTable,
  groupRollouts,
  prepareTranscripts,
  ReplayData,
  solvesByMoves,
  summarize,
} from '../../../../src/core/rollouts';
import type { Transcript } from '../../../../src/core/transcript/model';
import { transcriptFromRecord } from '../../../../src/core/transcript/record';

/** A Wordle record read and prepared as the board does (the pack gives label, moves and solved). */
function rollout(
  id: string,
  answer: string,
  reward: number | undefined,
  solved: boolean,
  guesses: string[],
  rowId?: string,
  step?: number,
): Transcript {
  const t = transcriptFromRecord({
    mtrl_rollout: 1,
    trajectory_id: id,
    answer,
    row_id: rowId,
    reward: reward ?? 0,
    solved,
    step,
    turns: guesses.map((guess) => ({ guess })),
  })!;
  if (reward === undefined) delete t.reward;
  return prepareTranscripts([t])[0];
}

describe('groupRollouts', () => {
  it('groups by row id, else answer, with mean, population std and advantage', () => {
    const rs = [
      rollout('a', 'crane', 1, true, ['crane']),
      rollout('b', 'crane', -1, false, ['slate']),
      rollout('c', 'ghost', 0.5, true, ['ghost'], 'row-9'),
      rollout('d', 'ghost', 0.5, true, ['ghost'], 'row-9'),
      rollout('e', 'crane', undefined, false, []),
    ];
    const { groups, groupOf, advantage } = groupRollouts(factsOf(rs).facts);
    assert.deepEqual(
      groups.map((g) => [g.label, g.members, g.solved]),
      [
        ['CRANE', [0, 1, 4], 1],
        ['GHOST', [2, 3], 0],
      ],
      'solved is reward ≥ the success threshold (1.0): GHOST was solved in the game at reward 0.5, below it',
    );
    assert.equal(groups[0].mean, 0);
    assert.equal(groups[0].std, 1);
    const near = (a: number, b: number) => Math.abs(a - b) < 1e-5;
    assert.ok(near(advantage[0], 1) && near(advantage[1], -1), 'GRPO: (r − mean) / (std + ε)');
    assert.deepEqual([advantage[2], advantage[3]], [0, 0], 'all rewards equal gives advantage 0');
    assert.ok(Number.isNaN(advantage[4]), 'no reward, no advantage');
    assert.deepEqual([...groupOf], [0, 0, 1, 1, 0]);
  });
});

describe('GRPO groups by step', () => {
  const rs = [
    rollout('a', 'crane', 1, true, ['crane'], 'r1', 1),
    rollout('b', 'crane', -1, false, ['slate'], 'r1', 1),
    rollout('c', 'crane', 1.5, true, ['crane'], 'r1', 2),
    rollout('d', 'crane', 1.5, true, ['crane'], 'r1', 2),
    rollout('e', 'ghost', -0.5, false, ['slate'], 'r2', 2),
    rollout('f', 'ghost', 0.5, false, ['slate'], 'r2'),
  ];

  it('makes one group per task and step, and pools only rollouts of unknown step', () => {
    const { groups, advantage } = groupRollouts(factsOf(rs).facts);
    assert.deepEqual(
      groups.map((g) => [g.label, g.step, g.members]),
      [
        ['CRANE', 1, [0, 1]],
        ['CRANE', 2, [2, 3]],
        ['GHOST', 2, [4]],
        ['GHOST', undefined, [5]],
      ],
    );
    assert.deepEqual([advantage[2], advantage[3]], [0, 0], 'the same task solved in a later step is not compared with step 1');
  });

  it('summarizes each step with the mean of its rollout rewards and its zero-advantage groups', () => {
    const data = new ReplayData(rs);
    const { steps, unknown } = data.steps();
    assert.equal(unknown, 1);
    assert.deepEqual(
      steps.map((s) => [s.step, s.rollouts, s.groups, s.solved, s.zeroAdvantageGroups]),
      [
        [1, 2, 1, 1, 0],
        [2, 3, 2, 2, 1],
      ],
    );
    assert.equal(steps[0].rewardMean, 0);
    assert.ok(Math.abs((steps[1].rewardMean ?? 0) - 2.5 / 3) < 1e-12);
  });

  it('filters by a step range, leaving out rollouts of unknown step', () => {
    const data = new ReplayData(rs);
    assert.deepEqual(
      data.groups({ steps: { from: 2, to: 2 } }, 0, 10).rows.map((g) => [g.label, g.step]),
      [
        ['CRANE', 2],
        ['GHOST', 2],
      ],
    );
    assert.equal(data.summary({ steps: { from: 1, to: 2 } }).rollouts, 5);
  });

  it('updates groups as rollouts stream in, in any order', () => {
    const streamed = new ReplayData(rs.slice(3));
    streamed.append(rs.slice(0, 3));
    const whole = new ReplayData(rs);
    assert.deepEqual(streamed.steps(), whole.steps());
  });
});

describe('summarize', () => {
  it('counts solves, losses, no-plays, guesses to solve and bins every reward', () => {
    const rs = [
      rollout('a', 'crane', 1.55, true, ['crane']),
      rollout('b', 'crane', 1.05, true, ['slate', 'paste', 'trace', 'beach', 'riser', 'crane']),
      rollout('c', 'crane', -0.5, false, ['slate']),
      rollout('d', 'crane', -1.5, false, []),
    ];
    const { facts } = factsOf(rs);
    const s = summarize(facts, groupRollouts(facts).groups, 4);
    assert.deepEqual([s.solved, s.lost, s.noPlay, s.solveRate, s.groups], [2, 1, 1, 0.5, 1]);
    assert.deepEqual(s.movesToSolve.slice(0, 7), [0, 1, 0, 0, 0, 0, 1]);
    assert.deepEqual(solvesByMoves(s.movesToSolve), [1, 0, 0, 0, 0, 1], 'the chart runs to the longest solve (6), not to 12');
    assert.deepEqual(solvesByMoves(new Array<number>(13).fill(0)), [0]);
    assert.deepEqual([s.reward?.min, s.reward?.max], [-1.5, 1.55]);
    assert.ok(Math.abs((s.reward?.mean ?? 0) - 0.15) < 1e-12);
    assert.equal(s.meanMoves, 8 / 3);
    assert.deepEqual(s.rewardHistogram.counts, [1, 1, 0, 2]);
  });
});

describe('ReplayData filters', () => {
  const data = new ReplayData([
    rollout('a', 'crane', 1.5, true, ['crane']),
    rollout('b', 'crane', -0.5, false, ['slate']),
    rollout('c', 'ghost', -1.5, false, []),
  ]);
  it('keeps groups that have a matching rollout, with the matching count', () => {
    assert.deepEqual(
      data.groups({ outcomes: ['lost'] }, 0, 10).rows.map((g) => [g.label, g.shown, g.n]),
      [['CRANE', 1, 2]],
    );
    assert.deepEqual(
      data.groups({ outcomes: ['no-play'] }, 0, 10).rows.map((g) => g.label),
      ['GHOST'],
    );
    assert.deepEqual(
      data.groups({ minReward: 0 }, 0, 10).rows.map((g) => g.label),
      ['CRANE'],
    );
    assert.deepEqual(
      data.groups({ search: 'GHO' }, 0, 10).rows.map((g) => g.label),
      ['GHOST'],
    );
    assert.equal(data.groups({}, 1, 10).total, 2);
    assert.deepEqual(
      data.rolloutsIn(0, { maxReward: 0 }).map((r) => r.trajectoryId),
      ['b'],
    );
  });
});

describe('mtrl rollouts', () => {
  const fixture = path.resolve(__dirname, '../../../fixtures/workspace/replay/rollouts.log');
  const run = async (args: string[], stdin = '') => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['rollouts', ...args], { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [stdin] });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('prints exactly the documented JSON shape, rounded to 4 decimals', async () => {
    const { code, out } = await run([fixture, '--json']);
    assert.equal(code, 0);
    const json = JSON.parse(out);
    assert.deepEqual(Object.keys(json), [
      'rollouts',
      'groups',
      'solved',
      'solve_rate',
      'success_threshold',
      'partial',
      'pack_verdict_differs',
      'reward',
      'guesses_to_solve',
      'tool_calls',
      'turns',
      'steps',
      'grpo_groups',
      'actions',
    ]);
    assert.deepEqual(json.steps, [], 'this log names no step');
    assert.deepEqual([json.grpo_groups.pooled, json.grpo_groups.step_unknown_rollouts], [6, 48]);
    assert.deepEqual(Object.keys(json.reward), ['mean', 'min', 'max']);
    assert.deepEqual(Object.keys(json.guesses_to_solve), ['1', '2', '3', '4', '5', '6']);
    assert.equal(json.rollouts, 48);
    assert.equal(json.groups, 6);
    const solvedByGuesses = Object.values(json.guesses_to_solve as Record<string, number>).reduce((a, b) => a + b, 0);
    assert.equal(solvedByGuesses, json.solved);
    assert.equal(json.solve_rate, Math.round((json.solved / 48) * 1e4) / 1e4);
  });

  it('reads standard input with -, and exits 1 when there is no rollout', async () => {
    const input = readFileSync(fixture, 'utf8');
    assert.equal((await run(['-', '--json'], input)).code, 0);
    const none = await run(['-'], 'hello\nworld\n');
    assert.equal(none.code, 1);
    assert.match(none.out, /no rollouts/);
  });

  it('exits 2 with one line for a missing file or a bad option', async () => {
    const missing = await run(['/nonexistent/x.log']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /no such file/);
    assert.equal((await run([fixture, '--bogus'])).code, 2);
    assert.equal((await run([])).code, 2);
  });
});

describe('the board’s facts in columns', () => {
  it('gives back each rollout’s facts as they were kept, without its turns', () => {
    const rs = [
      rollout('a', 'crane', 1.55, true, ['crane']),
      rollout('b', 'crane', undefined, false, []),
      rollout('c', 'ghost', -0.5, false, ['slate', 'paste'], 'row-9', 3),
    ];
    rs[1].status = 'error';
    rs[2].metrics = { shaping: 0.5 };
    rs[2].rebuilt = true;
    const { facts } = factsOf(rs);
    const table = new FactsTable();
    for (const f of facts) table.push(f);
    assert.equal(table.length, 3);
    for (let i = 0; i < 3; i++) {
      const { groupKey: _key, label: _label, pack: _pack, id, ...held } = facts[i];
      assert.deepEqual(table.at(i), held, `rollout ${i}`);
      assert.equal(table.id(i), id);
      assert.equal(table.at(i)!.turns, rs[i].turns.length, 'a count, not the turns');
    }
    assert.equal(table.at(3), undefined);
  });
});
