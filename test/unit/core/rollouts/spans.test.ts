import { strict as assert } from 'node:assert';
import { readSpan, type TraceSpan } from '../../../../src/core/rollouts/spans';

// A span reads the same in MLflow 2's dict form (attributes read by name) and MLflow 3's key/value list.

const dict: TraceSpan = {
  name: 'trajectory',
  context: { span_id: 's1', trace_id: 't1' },
  parent_id: null,
  start_time: 1_700_000_000_000_000_000,
  end_time: 1_700_000_001_000_000_000,
  attributes: {
    'mlflow.spanType': '"AGENT"',
    'mlflow.spanInputs': '{"prompt": "p"}',
    'mlflow.spanOutputs': '{"reward": 1}',
    reward: '0.75',
    status: '"completed"',
    other: '"ignored"',
  },
};

const list: TraceSpan = {
  name: 'trajectory',
  span_id: 's1',
  start_time_unix_nano: '1700000000000000000',
  end_time_unix_nano: '1700000001000000000',
  attributes: [
    { key: 'mlflow.spanType', value: { string_value: '"AGENT"' } },
    { key: 'mlflow.spanInputs', value: { string_value: '{"prompt": "p"}' } },
    { key: 'mlflow.spanOutputs', value: { string_value: '{"reward": 1}' } },
    { key: 'reward', value: { string_value: '0.75' } },
    { key: 'status', value: { string_value: '"completed"' } },
    { key: 'other', value: { string_value: '"ignored"' } },
  ],
};

describe('readSpan', () => {
  it('keeps inputs and outputs as stored text and decodes reward and status, in both encodings alike', () => {
    const expected = {
      id: 's1',
      parent: undefined,
      name: 'trajectory',
      start: 1_700_000_000_000_000_000,
      end: 1_700_000_001_000_000_000,
      inputs: '{"prompt": "p"}',
      outputs: '{"reward": 1}',
      reward: 0.75,
      status: 'completed',
    };
    assert.deepEqual(readSpan(dict), expected);
    assert.deepEqual(readSpan(list), expected);
  });

  it('leaves out what a span does not hold, and reads a number or text attribute as it is', () => {
    const bare = readSpan({ name: 'turn-1', context: { span_id: 's2' }, parent_id: 's1', attributes: { reward: 1, status: 'done' } });
    assert.equal(bare.inputs, undefined);
    assert.equal(bare.outputs, undefined);
    assert.equal(bare.reward, 1);
    assert.equal(bare.status, 'done');
    assert.equal(bare.parent, 's1');
    assert.equal(readSpan({ name: 'x' }).reward, undefined);
  });
});
