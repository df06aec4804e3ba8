import { strict as assert } from 'node:assert';
import type { Turn } from '../../../../src/core/transcript/model';
import { firstDifference } from '../../../../webview/replay/compare';

const act = (action: string, result: unknown = { ok: true }, thinking = 'hm'): Turn => ({
  thinking,
  toolCalls: [{ name: 'take_support_action', arguments: { action }, result }],
});

describe('firstDifference', () => {
  it('finds the first turn whose tool call differs, ignoring the thinking', () => {
    const a = { turns: [act('check_outage', {}, 'one way'), act('restart_router'), act('close_ticket')] };
    const b = { turns: [act('check_outage', {}, 'another way'), act('inspect_router_lights'), act('close_ticket')] };
    assert.equal(firstDifference(a, b), 1);
  });

  it('counts the same arguments in another key order as the same call', () => {
    const a = { turns: [{ toolCalls: [{ name: 'sql', arguments: { query: 'select 1', db: 'x' } }] }] };
    const b = { turns: [{ toolCalls: [{ name: 'sql', arguments: { db: 'x', query: 'select 1' } }] }] };
    assert.equal(firstDifference(a, b), undefined);
  });

  it('marks a different result or an error as a difference', () => {
    assert.equal(firstDifference({ turns: [act('a', { state: 'ok' })] }, { turns: [act('a', { state: 'down' })] }), 0);
    const failed: Turn = {
      toolCalls: [{ name: 'take_support_action', arguments: { action: 'a' }, result: { ok: true }, error: 'timeout' }],
    };
    assert.equal(firstDifference({ turns: [act('a')] }, { turns: [failed] }), 0);
  });

  it('compares the text of turns without tool calls', () => {
    assert.equal(
      firstDifference({ turns: [{ text: 'Answer: 42 ', toolCalls: [] }] }, { turns: [{ text: 'Answer: 42', toolCalls: [] }] }),
      undefined,
    );
    assert.equal(
      firstDifference({ turns: [{ text: 'Answer: 42', toolCalls: [] }] }, { turns: [{ text: 'Answer: 41', toolCalls: [] }] }),
      0,
    );
  });

  it('marks the turn after the shorter rollout ends, and nothing when both agree', () => {
    const a = { turns: [act('check_outage'), act('close_ticket')] };
    assert.equal(firstDifference(a, { turns: [act('check_outage')] }), 1);
    assert.equal(firstDifference(a, { turns: [...a.turns] }), undefined);
    assert.equal(firstDifference({ turns: [] }, { turns: [] }), undefined);
  });
});
