import { strict as assert } from 'node:assert';
import { actionsOf, FactsKeeper, transcriptFromTrace, type TraceSpan } from '../../../../src/core/rollouts';
import type { Transcript } from '../../../../src/core/transcript/model';

// A trace's tool calls are numbered by their stored argument text: equal calls are not decoded again.

const span = (id: string, name: string, parent: string | null, attributes: Record<string, string>): TraceSpan => ({
  name,
  context: { span_id: id, trace_id: 't' },
  parent_id: parent,
  start_time: Number(id.slice(1)),
  attributes,
});

/** A support rollout: one turn calling `act` with each action in turn. */
function rollout(n: number, actions: string[]): Transcript {
  const spans = [
    span('s0', 'trajectory', null, {
      'mlflow.spanInputs': '{"prompt": "Ticket"}',
      reward: '1',
      'mlflow.spanOutputs': `{"rolloutId": "r${n}"}`,
    }),
    span('s1', 'turn-1', 's0', {}),
    ...actions.map((action, i) =>
      span(`s${i + 2}`, 'act', 's1', { 'mlflow.spanInputs': JSON.stringify({ arguments: JSON.stringify({ action }) }) }),
    ),
  ];
  return transcriptFromTrace({ trace_info: { trace_id: `tr-${n}` }, spans })!;
}

describe('the facts of traced rollouts', () => {
  it('numbers each call by its stored arguments, decoding only the first of equal calls, with the actions decoded calls give', () => {
    const keeper = new FactsKeeper();
    const first = rollout(1, ['restart', 'escalate']);
    const second = rollout(2, ['escalate', 'restart', 'restart']);
    const third = rollout(3, ['wait']);
    const facts = [first, second, third].map((t) => keeper.facts(t));
    const calls = second.turns[0].toolCalls as (Transcript['turns'][0]['toolCalls'][0] & { argumentsSource?: string })[];
    assert.ok(
      calls.every((c) => c.argumentsSource !== undefined),
      'equal calls were numbered without decoding their arguments',
    );
    const named = (ids: readonly number[]) => ids.map((id) => keeper.actions[id].value);
    assert.deepEqual(named(facts[0].actions), ['restart', 'escalate']);
    assert.deepEqual(named(facts[1].actions), ['escalate', 'restart']);
    assert.deepEqual(named(facts[2].actions), ['wait']);
    for (const [i, t] of [first, second, third].entries())
      assert.deepEqual(new Set(named(facts[i].actions)), new Set([...actionsOf(t).values()].map((a) => a.value)));
    assert.deepEqual(
      keeper.actions.map((a) => [a.tool, a.argument]),
      [
        ['act', 'action'],
        ['act', 'action'],
        ['act', 'action'],
      ],
    );
  });
});
