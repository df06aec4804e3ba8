import { strict as assert } from 'node:assert';
import path from 'node:path';
import { reportJson, reportText, rolloutReport } from '../../../../src/cli/rolloutsReport';
import { summaryKeeper } from '../../../../src/core/rollouts';
import { signalReport } from '../../../../src/core/signal/report';
import { localReader, readRollouts } from '../../../../src/services/rollouts';

const fixtures = path.resolve(__dirname, '../../../fixtures/real-run/traces');

describe('what a summary keeps of each rollout', () => {
  it('gives the same summary as the rollouts whole (support and Wordle traces), without thinking or tool results', async () => {
    const whole = await readRollouts(localReader(fixtures), new AbortController().signal);
    const kept = await readRollouts(localReader(fixtures), new AbortController().signal, {}, undefined, undefined, summaryKeeper());
    assert.ok(whole.some((t) => t.env?.pack) && whole.some((t) => !t.env?.pack), 'a pack rollout and a generic one');
    assert.deepEqual(reportJson(rolloutReport(kept)), reportJson(rolloutReport(whole)));
    assert.equal(reportText(rolloutReport(kept), 'x'), reportText(rolloutReport(whole), 'x'));
    assert.ok(whole.some((t) => t.turns.some((turn) => turn.thinking)));
    assert.ok(kept.every((t) => t.turns.every((turn) => turn.thinking === undefined && turn.toolCalls.every((c) => !('result' in c)))));
  });

  it('gives the same learning-signal report as the rollouts whole, a tool call whose result was not seen still counted', async () => {
    const whole = await readRollouts(localReader(fixtures), new AbortController().signal);
    const last = [...whole[0].turns].reverse().find((turn) => turn.toolCalls.length)!;
    last.toolCalls[0] = { ...last.toolCalls[0], result: undefined, resultNotSeen: true };
    const kept = whole.map(summaryKeeper());
    assert.match(signalReport(whole).warnings?.join('\n') ?? '', /1 tool call in 1 rollout has no result/);
    assert.deepEqual(signalReport(kept), signalReport(whole));
  });
});
