import assert from 'node:assert/strict';
import { parseRolloutLine, transcriptFromTrace, type Trace } from '../../../../src/core/rollouts';
import { parseScenarioFile } from '../../../../src/core/reward';
import { jsonOrText } from '../../../../src/core/transcript/record';
import type { Transcript } from '../../../../src/core/transcript/model';
import { wordleView } from '../rollouts/wordleView';

const SOLVE_LINE = 'Guess 3/6: CRANE \u2014 all green. Correct, you solved it!';
/** The solve line JSON-encoded once more than a tool result is: `"\"Guess 3/6: CRANE \\u2014 all green…\""`. */
const TWICE = JSON.stringify(JSON.stringify(SOLVE_LINE));

const calls = (last: unknown) => [
  { name: 'guess_word', arguments: { guess: 'slate' }, result: 'Guess 1/6: SLATE -> XXGXG' },
  { name: 'guess_word', arguments: { guess: 'brake' }, result: 'Guess 2/6: BRAKE -> XGGXG' },
  { name: 'guess_word', arguments: '{"guess": "crane"}', result: last },
];

function recordTranscript(last: unknown): Transcript {
  const line = JSON.stringify({ mtrl_rollout: 1, trajectory_id: 't', reward: 1.3, turns: [{ tool_calls: calls(last) }] });
  const [item] = parseRolloutLine(line);
  assert.equal(item.kind, 'transcript');
  return (item as { transcript: Transcript }).transcript;
}

describe('tool results read in any encoding (the transcript model decodes them once)', () => {
  it('a JSON string holding text or JSON is decoded, layer by layer; plain text and broken JSON stay as they are', () => {
    assert.equal(jsonOrText(JSON.stringify(SOLVE_LINE)), SOLVE_LINE);
    assert.equal(jsonOrText(JSON.parse(TWICE)), SOLVE_LINE);
    assert.deepEqual(jsonOrText(JSON.stringify(JSON.stringify({ marks: 'GGGGG' }))), { marks: 'GGGGG' });
    assert.equal(jsonOrText(SOLVE_LINE), SOLVE_LINE);
    assert.equal(jsonOrText('"unclosed'), '"unclosed');
    assert.equal(jsonOrText('[not json'), '[not json');
  });

  it('a record whose solve line is JSON-encoded twice is solved in game, as the plain line is', () => {
    const encoded = JSON.parse(TWICE) as string;
    assert.match(encoded, /^"Guess 3\/6/, 'the fixture is the line encoded once more than a result');
    for (const result of [SOLVE_LINE, encoded]) {
      const t = recordTranscript(result);
      assert.equal(t.turns[0].toolCalls[2].result, SOLVE_LINE);
      const view = wordleView(t);
      assert.equal(view.solved, true, `solved in game with the result ${JSON.stringify(result).slice(0, 40)}`);
      assert.equal(view.answer, 'crane');
    }
  });

  it('a trace whose tool span outputs the solve line encoded twice is solved in game', () => {
    const attr = (v: unknown) => ({ string_value: JSON.stringify(v) });
    const span = (id: string, at: string, inputs: unknown, outputs: unknown, parent?: string) => ({
      span_id: id,
      ...(parent ? { parent_span_id: parent } : {}),
      start_time_unix_nano: at,
      attributes: [
        { key: 'mlflow.spanType', value: attr(parent ? 'TOOL' : 'AGENT') },
        { key: 'mlflow.spanInputs', value: attr(inputs) },
        { key: 'mlflow.spanOutputs', value: attr(outputs) },
      ],
    });
    const trace: Trace = {
      trace_info: { trace_id: 'tr-1', request_time: '2026-11-30T10:00:00Z', state: 'OK', trace_metadata: {} },
      spans: [
        span('r', '1000', { prompt: 'Play Wordle' }, { reward: 1.3 }),
        span('c1', '2000', { guess: 'slate' }, 'Guess 1/6: SLATE -> XXGXG', 'r'),
        span('c2', '3000', { guess: 'crane' }, JSON.parse(TWICE), 'r'),
      ],
    } as Trace;
    const t = transcriptFromTrace(trace)!;
    assert.equal(t.turns.flatMap((x) => x.toolCalls)[1].result, SOLVE_LINE);
    assert.equal(wordleView(t).solved, true);
  });

  it("a scenario's tool result encoded twice reaches the reward decoded", () => {
    const parsed = parseScenarioFile(
      JSON.stringify({
        reward: { file: 'r.py', function: 'reward' },
        task: 'Play',
        scenarios: { s: [{ name: 'guess_word', arguments: { guess: 'crane' }, result: JSON.parse(TWICE) }] },
      }),
    );
    assert.equal(parsed.file!.scenarios[0].turns[0].toolCalls[0].result, SOLVE_LINE);
  });
});
