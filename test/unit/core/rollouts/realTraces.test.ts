import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { WordleData } from '../../../../src/core/environments/wordle';
import { actionTable, factsOf, groupRollouts, prepareTranscripts, tracesIn, transcriptFromTrace } from '../../../../src/core/rollouts';
import type { Transcript } from '../../../../src/core/transcript/model';
import { TaskMatcher } from '../../../../src/core/transcript/tasks';

// The real trace shape: fixtures in test/fixtures/real-run/traces, a support-task run and a Wordle
// rollout, as raw `traces.json` artifacts (MLflow 2 span dicts) and as `traces/batchGet` responses (MLflow 3 OTel spans).

const dir = path.resolve(__dirname, '../../../fixtures/real-run/traces');
const read = (name: string): Transcript[] =>
  tracesIn(JSON.parse(readFileSync(path.join(dir, name), 'utf8')))
    .map(transcriptFromTrace)
    .filter((t): t is Transcript => !!t);
const calls = (t: Transcript) => t.turns.map((turn) => turn.toolCalls.map((c) => [c.name, c.arguments]));

describe('real-shaped MLflow traces', () => {
  it('a raw support-task artifact is one transcript: reward text, turns with thinking, tool calls with parsed JSON', () => {
    const [t, ...rest] = read('support_traces.rollout1.raw.json');
    assert.equal(rest.length, 0);
    assert.equal(t.id, 'tr-2207cd19007347c78487c1dbd50d4366', 'named as the REST API names the same trace');
    assert.equal(t.reward, 1);
    assert.equal(t.status, 'completed');
    assert.match(t.task.prompt, /^Resolve the customer's internet outage\. Customer says: My Wi-Fi works/);
    assert.equal(t.turns.length, 4);
    assert.match(t.turns[0].thinking ?? '', /^We need to choose an action/);
    assert.equal(t.turns[1].thinking, 'next');
    assert.deepEqual(calls(t), [
      [['take_support_action', { action: 'check_outage' }]],
      [['take_support_action', { action: 'inspect_router_lights' }]],
      [['take_support_action', { action: 'check_account_config' }]],
      [['take_support_action', { action: 'apply_config_fix' }]],
    ]);
    assert.deepEqual((t.turns[3].toolCalls[0].result as { state: string; terminal: boolean }).state, 'resolved');
    assert.equal(t.time, Math.round(1759363209000000000 / 1e6), 'the root span ends it');
    assert.equal(prepareTranscripts([t])[0].env, undefined, 'no pack claims a support agent');
  });

  it('the same rollouts from traces/batchGet (OTel spans, attribute lists) read the same', () => {
    const rest = read('support_traces.batchGet.json');
    const raw = [...read('support_traces.rollout1.raw.json'), ...read('support_traces.rollout2.raw.json')];
    assert.deepEqual(
      rest.map((t) => [t.id, t.reward, t.turns.length]),
      raw.map((t) => [t.id, t.reward, t.turns.length]),
    );
    assert.deepEqual(rest.map(calls), raw.map(calls));
    assert.deepEqual(
      rest.map((t) => t.turns.map((turn) => turn.thinking)),
      raw.map((t) => t.turns.map((turn) => turn.thinking)),
    );
    assert.equal(rest[1].reward, 0.75);
    assert.equal(rest[0].time, Date.parse('2026-10-02T00:30:09Z'), 'request time + execution duration');
  });

  for (const name of ['wordle_trace.batchGet.json', 'wordle_trace.raw.json'])
    it(`a Wordle trace (${name.includes('raw') ? 'raw' : 'REST'}) goes to the Wordle pack: guess_word calls, tiles from the feedback, solved`, () => {
      const [t] = prepareTranscripts(read(name));
      assert.equal(t.reward, 1.3);
      assert.equal(t.turns.length, 2);
      assert.deepEqual(calls(t), [[['guess_word', { guess: 'slate' }]], [['guess_word', { guess: 'crane' }]]]);
      assert.equal(t.turns[0].thinking, '...');
      assert.equal(t.env?.pack, 'wordle');
      assert.equal(t.env?.label, 'CRANE', 'the solving guess names the answer');
      const data = t.env?.data as WordleData;
      assert.deepEqual(
        data.turns.map((x) => [x.guess, x.marks]),
        [
          ['slate', 'XXGXX'],
          ['crane', 'GGGGG'],
        ],
      );
      assert.equal(t.solved, true);
    });

  it('groups rollouts by the dataset row their first message contains, and the action table splits above from below', () => {
    const rows = readFileSync(path.resolve(dir, '../data/evaluation_prompts.csv'), 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => ({ prompt: JSON.parse(line) as string }));
    const tasks = new TaskMatcher(rows);
    const rollouts = prepareTranscripts(read('support_traces.batchGet.json'), { tasks });
    assert.deepEqual(
      rollouts.map((t) => [t.task.rowIndex, t.solved]),
      [
        [0, true],
        [0, false],
      ],
    );
    const { facts, actions } = factsOf(rollouts);
    const { groups, advantage } = groupRollouts(facts);
    assert.equal(groups.length, 1);
    assert.equal(groups[0].label, "Resolve the customer's internet outage. Customer says: My Wi-Fi works, but websites do not load.");
    assert.ok(advantage[0] > 0 && advantage[1] < 0);
    const table = actionTable(facts, actions, advantage, [0, 1]);
    const row = (value: string) => table.rows.find((r) => r.value === value);
    assert.deepEqual([table.above, table.below], [1, 1]);
    assert.deepEqual([row('restart_router')?.above, row('restart_router')?.below], [0, 1]);
    assert.deepEqual([row('apply_config_fix')?.above, row('apply_config_fix')?.below], [1, 0]);
    assert.deepEqual([row('check_outage')?.above, row('check_outage')?.below], [1, 1]);
    assert.ok(table.rows.indexOf(row('check_outage')!) > table.rows.indexOf(row('restart_router')!), 'telling rows first');
  });

  it('matches a prompt with per-rollout text around it, the longest row when several fit, and skips rows sharing a prompt', () => {
    const tasks = new TaskMatcher([
      { prompt: 'Fix the router.' },
      { prompt: 'Fix the router. It is red.' },
      { prompt: 'Same' },
      { prompt: 'Same' },
    ]);
    assert.equal(tasks.indexOf('Fix the router. It is red.\n\nInitial environment: {"order": [2, 1]}'), 1);
    assert.equal(tasks.indexOf('You are an agent.\nFix the router.\nGo.'), 0);
    assert.equal(tasks.indexOf('Same'), undefined);
    assert.equal(tasks.indexOf('Something else'), undefined);
  });
});
