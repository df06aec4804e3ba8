import { strict as assert } from 'node:assert';
import { reportText, rolloutReport } from '../../../src/cli/rolloutsReport';
import { RolloutTally } from '../../../src/core/rollouts';
import type { Transcript } from '../../../src/core/transcript/model';

// Tool names and arguments are the agent's text: in `mtrl rollouts`' action table they must not act on the terminal.

const HOSTILE = 'ok\u001b[31mRED\r\nforged line\u202Eevil\u0000';

function rollout(id: string, group: string, reward: number, tool: string, argument: unknown): Transcript {
  return {
    id,
    groupKey: group,
    reward,
    status: 'completed',
    source: 'trace',
    task: { prompt: group },
    turns: [{ toolCalls: [{ name: tool, arguments: { [HOSTILE]: argument } }] }],
  };
}

describe('mtrl rollouts: the action table prints outside text safely', () => {
  it('escapes ANSI, bidi and NUL and folds CR LF in tool names, argument names and values', () => {
    const rollouts = [rollout('a', 'g', 1, HOSTILE, HOSTILE), rollout('b', 'g', 0, 'other', 'x')];
    const text = reportText(rolloutReport(RolloutTally.of(rollouts)), 'file');
    const table = text.slice(text.indexOf('actions in above'));
    assert.ok(table.includes('ok\\u001b[31mRED forged line\\u202eevil\\u0000'), table);
    for (const raw of ['\u0000', '\u001b', '\u202e', '\r']) assert.ok(!table.includes(raw), JSON.stringify(table));
    assert.ok(!table.split('\n').some((line) => line.startsWith('forged line')), table);
  });
});
