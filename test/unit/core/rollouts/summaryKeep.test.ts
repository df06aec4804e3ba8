import { strict as assert } from 'node:assert';
import path from 'node:path';
import { reportJson, reportText, rolloutReport } from '../../../../src/cli/rolloutsReport';
import { RolloutTally, summaryKeeper } from '../../../../src/core/rollouts';
import type { ToolCall, Transcript, Turn } from '../../../../src/core/transcript/model';
import { signalReport } from '../../../../src/core/signal/report';
import { localReader, readRollouts } from '../../../../src/services/rollouts';

const fixtures = path.resolve(__dirname, '../../../fixtures/real-run/traces');

describe('what a summary keeps of each rollout', () => {
  it('gives the same summary as the rollouts whole (support and Wordle traces), without thinking or tool results', async () => {
    const whole = await readRollouts(localReader(fixtures), new AbortController().signal);
    const kept = await readRollouts(localReader(fixtures), new AbortController().signal, {}, undefined, undefined, summaryKeeper());
    assert.ok(whole.some((t) => t.env?.pack) && whole.some((t) => !t.env?.pack), 'a pack rollout and a generic one');
    const report = (rollouts: Transcript[]) => rolloutReport(RolloutTally.of(rollouts));
    assert.deepEqual(reportJson(report(kept)), reportJson(report(whole)));
    assert.equal(reportText(report(kept), 'x'), reportText(report(whole), 'x'));
    assert.ok(whole.some((t) => t.turns.some((turn) => turn.thinking)));
    assert.ok(kept.every((t) => t.turns.every((turn) => turn.thinking === undefined && turn.toolCalls.every((c) => !('result' in c)))));
  });

  it('a tally of the rollouts as they stream past reports as the rollouts held whole, and keeps none of them', async () => {
    const whole = await readRollouts(localReader(fixtures), new AbortController().signal);
    const tally = new RolloutTally();
    const kept = await readRollouts(localReader(fixtures), new AbortController().signal, {}, undefined, undefined, (t) => tally.add(t));
    assert.equal(kept.length, whole.length);
    assert.ok(kept.every((k) => k === undefined));
    const held = RolloutTally.of(whole);
    assert.ok(held.toolCalls > 0 && Object.keys(held.byTool).length > 1, 'tool calls of more than one tool');
    assert.deepEqual(reportJson(rolloutReport(tally)), reportJson(rolloutReport(held)));
    assert.equal(reportText(rolloutReport(tally), 'x'), reportText(rolloutReport(held), 'x'));
  });

  it('gives the same learning-signal report as the rollouts whole, a tool call whose result was not seen still counted', async () => {
    const whole = await readRollouts(localReader(fixtures), new AbortController().signal);
    const last = [...whole[0].turns].reverse().find((turn) => turn.toolCalls.length)!;
    last.toolCalls[0] = { ...last.toolCalls[0], result: undefined, resultNotSeen: true };
    const kept = whole.map(summaryKeeper());
    assert.match(signalReport(whole).warnings?.join('\n') ?? '', /1 tool call in 1 rollout has no result/);
    assert.deepEqual(signalReport(kept), signalReport(whole));
  });

  it('holds equal turns and equal lists of turns once, and keeps apart turns that differ in a call, an error, a reward or a length', () => {
    const call = (name: string, args: unknown, more: Partial<ToolCall> = {}): ToolCall => ({ name, arguments: args, ...more });
    const rollout = (id: string, turns: Turn[]): Transcript => ({
      id,
      task: { prompt: 'Ticket' },
      groupKey: 'g',
      status: 'completed',
      source: 'trace',
      turns,
    });
    const a = () => ({ toolCalls: [call('act', { action: 'restart' })] });
    const keep = summaryKeeper();
    const one = keep(rollout('1', [a(), a()]));
    const two = keep(rollout('2', [a(), a()]));
    assert.equal(one.turns[0], one.turns[1]);
    assert.equal(one.turns, two.turns);
    const shorter = keep(rollout('3', [a()]));
    assert.notEqual(shorter.turns, one.turns);
    assert.deepEqual(shorter.turns, [one.turns[0]]);
    const differing = [
      { toolCalls: [call('act', { action: 'escalate' })] },
      { toolCalls: [call('act', '{"action":"restart"}')] },
      { toolCalls: [call('act', { action: 'restart' }, { error: 'timeout' })] },
      { toolCalls: [call('act', { action: 'restart' }, { resultNotSeen: true })] },
      { toolCalls: [call('other', { action: 'restart' })] },
      { ...a(), reward: 1 },
      { toolCalls: [...a().toolCalls, ...a().toolCalls] },
      { toolCalls: [] },
    ];
    const kept = differing.map((turn, i) => keep(rollout(`d${i}`, [turn])).turns[0]);
    assert.equal(new Set([one.turns[0], ...kept]).size, differing.length + 1);
    kept.forEach((turn, i) =>
      assert.deepEqual(
        turn.toolCalls.map((c) => c.arguments),
        differing[i].toolCalls.map((c) => c.arguments),
      ),
    );
  });
});
