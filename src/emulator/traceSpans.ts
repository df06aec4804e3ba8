import type { TraceSpan } from '../core/rollouts/traces';
import type { Episode } from './episode';
import { pythonJson } from './pythonJson';
import { Random } from './random';

// The spans of one rollout's trace as the real service writes them (test/fixtures/real-run/traces): a root
// `trajectory` span with the first user message, the reward and the status; one `turn-N` span per model call with its
// thinking; under each, one span per tool call named after the tool, arguments and result as JSON text. Written in
// MLflow 3's REST form (`traces/batchGet`) and MLflow 2's span dicts (the `traces.json` artifact).

/** A span before encoding: times in nanoseconds, attribute values already the text MLflow stores. */
interface Span {
  name: string;
  id: string;
  parent?: string;
  start: bigint;
  end: bigint;
  attributes: Record<string, string>;
}

/** A UUID (version 4 form) drawn from a seed: span ids are UUIDs in real traces, and the same seed gives the same ids. */
function uuidFrom(rng: Random): string {
  const word = () => rng.int(0x100000000).toString(16).padStart(8, '0');
  const [a, b, c, d] = [word(), word(), word(), word()];
  return `${a}-${b.slice(0, 4)}-4${b.slice(5)}-${'89ab'[rng.int(4)]}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}

/** 32 hex digits as a UUID (how a span names its trace). */
export const asUuid = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/** The episode's spans between `startMs` and `endMs`: each turn a slot, its model call in the first half, its tool calls after. */
function spansOf(episode: Episode, startMs: number, endMs: number, seed: string): Span[] {
  const rng = new Random(seed);
  const start = BigInt(startMs) * 1_000_000n;
  const end = BigInt(endMs) * 1_000_000n;
  const root: Span = {
    name: 'trajectory',
    id: uuidFrom(rng),
    start,
    end,
    attributes: {
      'mlflow.spanInputs': pythonJson({ prompt: episode.prompt }),
      reward: String(episode.reward),
      status: 'reward_received',
    },
  };
  const spans = [root];
  const slot = (end - start) / BigInt(Math.max(1, episode.turns.length));
  episode.turns.forEach((turn, i) => {
    const at = start + slot * BigInt(i);
    const model: Span = {
      name: `turn-${i + 1}`,
      id: uuidFrom(rng),
      parent: root.id,
      start: at,
      end: at + slot / 2n,
      attributes: { 'mlflow.spanOutputs': pythonJson({ thinking: turn.thinking }) },
    };
    spans.push(model);
    const share = slot / 2n / BigInt(Math.max(1, turn.calls.length));
    turn.calls.forEach((call, j) => {
      const from = at + slot / 2n + share * BigInt(j);
      spans.push({
        name: call.name,
        id: uuidFrom(rng),
        parent: model.id,
        start: from + share / 10n,
        end: from + (share * 9n) / 10n,
        attributes: {
          'mlflow.spanInputs': pythonJson({ arguments: call.arguments }),
          'mlflow.spanOutputs': pythonJson({ result: call.result }),
        },
      });
    });
  });
  return spans;
}

/** The spans in MLflow 3's REST form (`traces/batchGet`): OpenTelemetry fields, attributes as a key/value list. */
export function restSpans(episode: Episode, startMs: number, endMs: number, seed: string, traceHex: string): TraceSpan[] {
  return spansOf(episode, startMs, endMs, seed).map((s) => ({
    trace_id: asUuid(traceHex),
    span_id: s.id,
    ...(s.parent ? { parent_span_id: s.parent } : {}),
    name: s.name,
    start_time_unix_nano: String(s.start),
    end_time_unix_nano: String(s.end),
    attributes: Object.entries(s.attributes).map(([key, value]) => ({ key, value: { string_value: value } })),
  }));
}

/** The `traces.json` artifact: MLflow 2 span dicts, times as JSON numbers of nanoseconds (too big for a double: written as digits). */
export function artifactText(episode: Episode, startMs: number, endMs: number, seed: string, traceHex: string): string {
  const spans = spansOf(episode, startMs, endMs, seed).map((s) => ({
    name: s.name,
    context: { trace_id: asUuid(traceHex), span_id: s.id },
    parent_id: s.parent ?? null,
    start_time: `\u0000${s.start}\u0000`,
    end_time: `\u0000${s.end}\u0000`,
    attributes: s.attributes,
  }));
  return JSON.stringify({ spans }, null, 2).replace(/"\\u0000(\d+)\\u0000"/g, '$1');
}
