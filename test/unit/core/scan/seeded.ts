import type { Transcript, Turn } from '../../../../src/core/transcript/model';

// Rollouts of a support agent (tools search_kb and refund), each seeded with one generic kind, and clean ones that
// come close to each kind without being it (an order number 403, a tool result that mentions an error, a polite reply).

const GROUP = 4;

function rollout(id: string, step: number, turns: Turn[], extra: Partial<Transcript> = {}): Transcript {
  const task = Number(id.replace(/\D/g, '')) % 5;
  return {
    id,
    task: { prompt: `ticket ${task}` },
    groupKey: `|${step}|ticket ${task}`,
    step,
    status: 'completed',
    reward: 1,
    turns,
    source: 'record',
    ...extra,
  };
}

const search = (query: string, result: unknown = 'Refunds within 30 days.') => ({ name: 'search_kb', arguments: { query }, result });
const answer = (text = 'Your refund of $20 for order 403 is on its way.'): Turn => ({ text, toolCalls: [] });

/** One rollout of each kind's shape, given its id and step. */
export const SEEDS: Record<string, (id: string, step: number) => Transcript> = {
  'auth-error': (id, step) =>
    rollout(
      id,
      step,
      [{ toolCalls: [search('refund', 'HTTP 403 Forbidden: the bearer token has expired')] }, answer('Sorry, the tool failed.')],
      { reward: 0 },
    ),
  'error-status': (id, step) =>
    rollout(id, step, [{ toolCalls: [search('refund')] }], { status: 'error', error: 'the agent timed out', reward: 0 }),
  'invalid-tool': (id, step) =>
    rollout(
      id,
      step,
      [
        {
          toolCalls: [
            { name: 'check_policy', arguments: {}, error: 'Error: check_policy is not a valid tool, try one of [search_kb, refund].' },
          ],
        },
        answer(),
      ],
      { reward: 0 },
    ),
  'tool-error': (id, step) =>
    rollout(
      id,
      step,
      [
        { toolCalls: [{ name: 'refund', arguments: { order: 7 }, result: { error: 'order 7 not found' } }] },
        answer('The order was not found.'),
      ],
      { reward: 0.5 },
    ),
  'tool-call-as-text': (id, step) =>
    rollout(
      id,
      step,
      [{ toolCalls: [search('refund')] }, answer('<tool_call>{"name": "refund", "arguments": {"order": 403}}</tool_call>')],
      { reward: 0 },
    ),
  'repeated-call': (id, step) =>
    rollout(id, step, [{ toolCalls: [search('refund')] }, { toolCalls: [search('refund')] }, { toolCalls: [search('refund')] }, answer()], {
      reward: 0.5,
    }),
  truncated: (id, step) =>
    rollout(
      id,
      step,
      [
        { toolCalls: [search('refund')] },
        { text: 'Let me explain the refund policy in detail: first', toolCalls: [], finishReason: 'length' },
      ],
      { reward: 0 },
    ),
  'no-final-answer': (id, step) =>
    rollout(id, step, [{ text: 'Let me look that up.', toolCalls: [search('refund')] }, { toolCalls: [search('refund window')] }], {
      reward: 0,
    }),
  refusal: (id, step) => rollout(id, step, [answer("I'm sorry, but I can't help with refunds.")], { reward: 0 }),
};

/** Close to every kind, none of them: a number 403, an error mentioned in a result, two equal calls (not three), a helpful reply. */
export function clean(id: string, step: number): Transcript {
  return rollout(id, step, [
    {
      text: 'I can help with that.',
      toolCalls: [search('refund policy', 'Error codes 401-403 are explained on page 2. Refunds within 30 days.')],
    },
    { toolCalls: [search('refund'), search('refund')] },
    { toolCalls: [{ name: 'refund', arguments: { order: 403 }, result: { status: 'ok', refunded: 20 } }], finishReason: 'tool_calls' },
    answer(),
  ]);
}

/** How many rollouts of each kind the seeded set holds. */
export const SEEDED_COUNTS: Record<string, number> = {
  'auth-error': 3,
  'error-status': 2,
  'invalid-tool': 4,
  'tool-error': 5,
  'tool-call-as-text': 6,
  'repeated-call': 7,
  truncated: 2,
  'no-final-answer': 3,
  refusal: 4,
};

/** Each kind seeded SEEDED_COUNTS times, and `cleanCount` clean rollouts, over two steps in groups of four. */
export function seededTranscripts(cleanCount = 40): Transcript[] {
  const out: Transcript[] = [];
  for (const [kind, n] of Object.entries(SEEDED_COUNTS)) for (let i = 0; i < n; i++) out.push(SEEDS[kind](`${kind}-${i}`, 1 + (i % 2)));
  for (let i = 0; i < cleanCount; i++) out.push(clean(`clean-${i}`, 1 + (i % 2)));
  return out.map((t, i) => ({ ...t, groupKey: `|${t.step}|g${Math.floor(i / GROUP) % 7}` }));
}
