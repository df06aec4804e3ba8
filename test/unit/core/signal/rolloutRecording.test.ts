import { strict as assert } from 'node:assert';
import { findHardCodedEndpoint } from '../../../../src/core/signal/hardCodedEndpoint';
import { RolloutRecording } from '../../../../src/core/signal/rolloutRecording';
import { sampleRowIndices } from '../../../../src/core/signal/sampleRows';

const task = {
  id: 't1',
  groupKey: 'row-3',
  row: { prompt: 'ORD-12345 arrived broken' },
  rowIndex: 3,
  prompt: 'ORD-12345 arrived broken',
  jobArn: 'arn:x',
};
const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });
const reply = (message: Record<string, unknown>, prompt = 10, completion = 5) => ({
  choices: [{ message }],
  usage: { prompt_tokens: prompt, completion_tokens: completion },
});

describe('RolloutRecording', () => {
  it('builds turns from model calls: reasoning, text, tool calls with parsed arguments and the next request’s results by tool_call_id', () => {
    const r = new RolloutRecording(task);
    const first = [
      { role: 'system', content: 'desk' },
      { role: 'user', content: 'Ticket: ORD-12345 arrived broken. Session 7.' },
    ];
    r.modelCall(
      { messages: first },
      reply({
        reasoning_content: 'Look it up.',
        tool_calls: [call('c1', 'lookup_order', '{"order_id": "ORD-12345"}'), call('c2', 'check_policy', '{bad')],
      }),
    );
    r.modelCall(
      {
        messages: [
          ...first,
          { role: 'assistant' },
          { role: 'tool', tool_call_id: 'c2', content: 'policy text' },
          { role: 'tool', tool_call_id: 'c1', content: '{"found": true}' },
        ],
      },
      reply({ content: [{ type: 'text', text: 'Refunded.' }] }, 30, 7),
    );
    r.completed('ready');
    r.rewarded([0.75]);
    r.returned({ reward: 0.1, metrics: { turns: 2 } });
    const t = r.transcript();
    assert.equal(t.task.prompt, 'Ticket: ORD-12345 arrived broken. Session 7.');
    assert.equal(t.task.rowIndex, 3);
    assert.equal(t.groupKey, 'row-3');
    assert.equal(t.reward, 0.75, 'the SDK’s update-reward wins over the returned value');
    assert.equal(t.status, 'completed');
    assert.deepEqual(t.metrics, { turns: 2 });
    assert.deepEqual(t.turns[0], {
      thinking: 'Look it up.',
      toolCalls: [
        { name: 'lookup_order', arguments: { order_id: 'ORD-12345' }, result: { found: true } },
        { name: 'check_policy', arguments: '{bad', result: 'policy text' },
      ],
    });
    assert.deepEqual(t.turns[1], { text: 'Refunded.', toolCalls: [] });
    assert.deepEqual(r.tokens, { prefill: 40, sample: 12 });
  });

  it('a tool call the agent made last is marked result-not-seen; answered ones are not; the returned summary is kept', () => {
    const r = new RolloutRecording(task);
    const ask = [{ role: 'user', content: 'Ticket: ORD-12345 arrived broken.' }];
    r.modelCall({ messages: ask }, reply({ tool_calls: [call('c1', 'lookup_order', '{}')] }));
    r.modelCall(
      { messages: [...ask, { role: 'assistant' }, { role: 'tool', tool_call_id: 'c1', content: '{"found": true}' }] },
      reply({ tool_calls: [call('c2', 'close_ticket', '{"resolution": "refunded"}')] }),
    );
    r.returned({ reward: 1, metrics: { task_completed: true }, summary: 'Closed as refunded.' });
    const t = r.transcript();
    assert.deepEqual(t.turns[0].toolCalls[0], { name: 'lookup_order', arguments: {}, result: { found: true } });
    assert.deepEqual(t.turns[1].toolCalls[0], { name: 'close_ticket', arguments: { resolution: 'refunded' }, resultNotSeen: true });
    assert.deepEqual(t.fields, { summary: 'Closed as refunded.' });
    assert.deepEqual(t.metrics, { task_completed: true });
  });

  it('the returned reward when no SDK call came; a failed completion or a raise is an error without reward', () => {
    const returned = new RolloutRecording(task);
    returned.returned({ reward: [0.25, 0.5] });
    assert.equal(returned.transcript().reward, 0.75);
    const failed = new RolloutRecording(task);
    failed.completed('failed');
    failed.rewarded([0]);
    assert.equal(failed.transcript().status, 'error');
    assert.equal(failed.transcript().reward, undefined);
    const raised = new RolloutRecording(task);
    raised.failed('agent.py:12: KeyError: answer');
    assert.deepEqual([raised.transcript().status, raised.transcript().error], ['error', 'agent.py:12: KeyError: answer']);
    const status = new RolloutRecording(task);
    status.returned({ status: 'error', error: 'no tool' });
    assert.deepEqual([status.transcript().status, status.transcript().error], ['error', 'no tool']);
  });

  it('a call that fails after the rollout was stopped is not a refusal of the policy: the stop stays the cause', () => {
    const r = new RolloutRecording(task);
    r.modelCallFailed('The policy answered 500.');
    r.stop('The agent’s request (9 bytes so far) would pass the local check’s allowance of 128 MB.');
    r.modelCallFailed('The policy at u had not answered yet: the agent hung up while the policy was still answering.');
    assert.deepEqual(r.refusals, ['The policy answered 500.']);
    assert.equal(r.modelCalls, 1);
    assert.match(r.transcript().error ?? '', /allowance of 128 MB/);
  });
});

describe('findHardCodedEndpoint', () => {
  it('names the Job Runtime host first, then an environment default URL, then a base_url literal; comments are skipped', () => {
    const source = [
      'import os',
      '# base_url="https://job-runtime.sagemaker.us-east-1.api.aws/v1" in production',
      'BASE = os.getenv("POLICY_URL", "http://10.0.0.5:8000/v1")',
      'client = OpenAI(base_url=f"https://job-runtime.sagemaker.{REGION}.api.aws/v1")',
    ].join('\n');
    assert.equal(findHardCodedEndpoint(source)?.line, 4);
    assert.equal(findHardCodedEndpoint(source.split('\n').slice(0, 3).join('\n'))?.line, 3);
    assert.equal(findHardCodedEndpoint('endpoint = payload["metadata"]["endpoint"]'), undefined);
  });
});

describe('sampleRowIndices', () => {
  it('k distinct rows in dataset order, the same for the same sequence, all rows when k exceeds them', () => {
    const seq = () => {
      let x = 0.1;
      return () => (x = (x * 9301 + 0.49297) % 1);
    };
    const a = sampleRowIndices(100, 8, seq());
    assert.deepEqual(a, sampleRowIndices(100, 8, seq()));
    assert.equal(new Set(a).size, 8);
    assert.deepEqual(
      a,
      [...a].sort((x, y) => x - y),
    );
    assert.deepEqual(sampleRowIndices(3, 8, seq()), [0, 1, 2]);
  });
});

describe('RolloutRecording: usage left out', () => {
  it('counts the model calls answered without usage, apart from a usage of 0', () => {
    const recording = new RolloutRecording({ id: 'u', groupKey: 'g', row: {}, rowIndex: 0, prompt: 'p', jobArn: 'j' });
    const answer = { choices: [{ message: { role: 'assistant', content: 'ok' } }] };
    recording.modelCall({ messages: [] }, answer);
    recording.modelCall({ messages: [] }, { ...answer, usage: {} });
    recording.modelCall({ messages: [] }, { ...answer, usage: { prompt_tokens: 0, completion_tokens: 0 } });
    assert.deepEqual(recording.tokens, { prefill: 0, sample: 0, unreported: 2 });
  });
});
