import assert from 'node:assert/strict';
import { transcriptFromTrace, type Trace, type TraceDocument, type TraceSpan } from '../../../../src/core/rollouts';
import { wordleView } from './wordleView';

/** The rollout a trace gives, as the Wordle pack reads it; undefined when the trace gives none. */
const rolloutFromTrace = (t: TraceDocument) => {
  const transcript = transcriptFromTrace(t);
  return transcript && wordleView(transcript);
};

// Traces written by hand in MLflow 3's REST shape: `TraceInfoV3` (protobuf JSON) and OpenTelemetry spans whose
// attribute values are JSON text, as `traces/batchGet` returns them.

const json = (value: unknown) => ({ string_value: JSON.stringify(value) });
const attrs = (inputs: unknown, outputs: unknown) => [
  { key: 'mlflow.spanType', value: json('TOOL') },
  { key: 'mlflow.spanInputs', value: json(inputs) },
  { key: 'mlflow.spanOutputs', value: json(outputs) },
];

function trace(overrides: Partial<Trace['trace_info']> = {}, spans?: TraceSpan[]): Trace {
  return {
    trace_info: {
      trace_id: 'tr-0123456789abcdef0123456789abcdef',
      client_request_id: 'client-1',
      trace_location: { type: 'MLFLOW_EXPERIMENT', mlflow_experiment: { experiment_id: '7' } },
      request_time: '2026-11-30T10:00:00.250Z',
      execution_duration: '4.5s',
      state: 'OK',
      trace_metadata: { 'mlflow.sourceRun': 'run1', 'mtrl.step': '12' },
      ...overrides,
    },
    spans: spans ?? [
      // Spans come in any order: the turns are put in start order.
      {
        span_id: 'c3',
        parent_span_id: 'r',
        start_time_unix_nano: '3000',
        attributes: attrs({ guess: 'crane' }, 'Guess 3/6: CRANE — all green. Solved!'),
      },
      {
        span_id: 'r',
        start_time_unix_nano: '1000',
        attributes: attrs(
          { prompt: JSON.stringify({ id: 'wordle_train_0042', answer: 'crane' }), metadata: { rolloutId: 'roll-42', jobArn: 'arn:job' } },
          { reward: 1.25 },
        ),
      },
      { span_id: 'c1', parent_span_id: 'r', start_time_unix_nano: '1500', attributes: attrs({ guess: 'slate' }, { marks: 'XXGXG' }) },
      {
        span_id: 'c2',
        parent_span_id: 'r',
        start_time_unix_nano: '2000',
        attributes: attrs({ guess: 'xx' }, "Invalid guess 'xx': must be exactly 5 letters a-z. You have 5 guesses left."),
      },
    ],
  };
}

describe('rollouts from MLflow traces', () => {
  it('reads the invocation (row, rollout id, job), the reward, the turns in start order and the step from the metadata', () => {
    const r = rolloutFromTrace(trace())!;
    assert.equal(r.trajectory_id, 'roll-42');
    assert.equal(r.job_arn, 'arn:job');
    assert.equal(r.row_id, 'wordle_train_0042');
    assert.equal(r.answer, 'crane');
    assert.equal(r.reward, 1.25);
    assert.deepEqual(
      r.turns.map((t) => [t.guess, t.marks, t.valid]),
      [
        ['slate', 'XXGXG', true],
        ['xx', undefined, false],
        ['crane', 'GGGGG', true],
      ],
    );
    assert.equal(r.solved, true);
    assert.equal(r.step, 12);
    assert.equal(r.stepFrom, 'trace');
    assert.equal(r.time, Date.parse('2026-11-30T10:00:04.750Z'), 'the trace ends at request time + execution duration');
  });

  it('takes the step from a tag or the invocation metadata, and leaves it unknown when none names it', () => {
    assert.equal(rolloutFromTrace(trace({ trace_metadata: {}, tags: { step: '3' } }))!.step, 3);
    const spans = trace().spans!.map((s) =>
      s.span_id === 'r'
        ? { ...s, attributes: attrs({ prompt: '{"id":"r1","answer":"crane"}', metadata: { rolloutId: 'x', step: 5 } }, { reward: 0 }) }
        : s,
    );
    assert.equal(rolloutFromTrace(trace({ trace_metadata: {} }, spans))!.step, 5);
    const none = rolloutFromTrace(trace({ trace_metadata: { 'mtrl.step': 'soon' } }))!;
    assert.equal(none.reward, 1.25);
    assert.equal(none.step, undefined);
    assert.equal(none.stepFrom, undefined);
  });

  it('reads attributes in the dict form too, a reward from a "reward" assessment, and the answer from a solving guess', () => {
    const spans: TraceSpan[] = [
      { span_id: 'r', attributes: { 'mlflow.spanInputs': JSON.stringify({ prompt: 'not json' }), 'mlflow.spanOutputs': '"done"' } },
      { span_id: 'a', parent_span_id: 'r', start_time_unix_nano: 5, attributes: { 'mlflow.spanInputs': '{"guess":"plumb"}' } },
      {
        span_id: 'b',
        parent_span_id: 'r',
        start_time_unix_nano: 9,
        attributes: { 'mlflow.spanInputs': '{"guess":"crane"}', 'mlflow.spanOutputs': '{"marks":"GGGGG"}' },
      },
    ];
    const r = rolloutFromTrace(trace({ assessments: [{ assessment_name: 'reward', feedback: { value: -0.5 } }] }, spans))!;
    assert.equal(r.reward, -0.5);
    assert.equal(r.trajectory_id, 'client-1', 'without a rolloutId the client request id names it');
    assert.equal(r.answer, 'crane');
    assert.equal(r.turns[0].marks, 'XXXXX', 'marks not logged are recomputed from the answer');
    assert.equal(r.solved, true);
  });

  it('falls back to the previews for a trace listed without spans, and needs a reward', () => {
    const previews = {
      request_preview: JSON.stringify({ prompt: '{"id":"r9","answer":"vivid"}', metadata: { rolloutId: 'p1' } }),
      response_preview: '{"reward": [0.75]}',
    };
    const r = rolloutFromTrace({ trace_info: { ...trace().trace_info, ...previews } })!;
    assert.deepEqual([r.trajectory_id, r.row_id, r.answer, r.reward, r.turns.length, r.step], ['p1', 'r9', 'vivid', 0.75, 0, 12]);
    // A cut preview is not JSON: nothing to read, so no rollout.
    assert.equal(rolloutFromTrace({ trace_info: { ...trace().trace_info, response_preview: '{"reward": 0.7' } }), undefined);
    assert.equal(rolloutFromTrace({ trace_info: { trace_id: '' } }), undefined);
  });

  it("names a raw artifact's rollout as the REST API names its trace: `tr-` and the UUID's hex in lower case, else the id as written", () => {
    const artifact = (traceId: string) =>
      transcriptFromTrace({
        spans: [{ name: 'trajectory', context: { span_id: 'r', trace_id: traceId }, attributes: { reward: '1' } }],
      })?.id;
    assert.equal(artifact('2207CD19-0073-47c7-8487-00000000000A'), 'tr-2207cd19007347c7848700000000000a');
    assert.equal(artifact('2207cd19007347c7848700000000000a'), 'tr-2207cd19007347c7848700000000000a');
    // Not 32 hex digits: a letter past f, a control character that folds onto a digit, one digit short.
    for (const id of [
      '2207cd19-0073-47c7-8487-00000000000g',
      '2207cd19-0073-47c7-8487-00000000000\u0010',
      '2207cd19-0073-47c7-8487-0000000000',
    ])
      assert.equal(artifact(id), id);
  });
  it('takes a span named turn-N, turn_N, "turn N" or turnN in any case for a turn, and any other name for a tool call', () => {
    const turnsOf = (name: string) =>
      transcriptFromTrace({
        spans: [
          { name: 'trajectory', context: { span_id: 'r', trace_id: 't' }, attributes: { reward: '1' } },
          { name, context: { span_id: 's', trace_id: 't' }, parent_id: 'r', start_time: 1 },
        ],
      })!.turns;
    for (const name of ['turn-1', 'Turn_2', 'TURN 3', 'turn12']) assert.deepEqual(turnsOf(name)[0].toolCalls, [], name);
    for (const name of ['turn', 'turn-', 'turnx1', 'turn-1a', 'return-1', 'turn--1', 'tur-1', ''])
      assert.equal(turnsOf(name)[0].toolCalls[0]?.name, name, name);
  });
  it("puts each tool call in its parent's turn, an older one too, else in the newest, and calls before any turn in turns of their own", () => {
    const span = (name: string, id: string, parent: string | undefined, start: number): TraceSpan => ({
      name,
      context: { span_id: id },
      parent_id: parent ?? null,
      start_time: start,
      attributes: { 'mlflow.spanInputs': JSON.stringify({ arguments: JSON.stringify({ n: id }) }) },
    });
    const t = transcriptFromTrace({
      spans: [
        { ...span('trajectory', 'r', undefined, 0), context: { span_id: 'r', trace_id: 'x' }, attributes: { reward: '0.5' } },
        span('lookup', 'early', 'r', 1),
        span('turn-1', 't1', 'r', 2),
        span('lookup', 'a', 't1', 3),
        span('turn-2', 't2', 'r', 4),
        span('lookup', 'b', 't2', 5),
        span('lookup', 'late', 't1', 6),
        span('lookup', 'root', 'r', 7),
        span('lookup', 'orphan', undefined, 8),
        span('turn-3', 't3', 'r', 9),
        span('lookup', 'back', 't2', 10),
        span('lookup', 'c', 't3', 11),
      ],
    })!;
    assert.deepEqual(
      t.turns.map((turn) => turn.toolCalls.map((call) => (call.arguments as { n: string }).n)),
      [['early'], ['a', 'late'], ['b', 'root', 'orphan', 'back'], ['c']],
    );
  });
});
