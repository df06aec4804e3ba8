import type { Trace, TraceSpan } from '../../../src/core/rollouts';

/** One span of either encoding, read plainly: the tests' own reading, independent of the product's trace reader. */
export interface PlainSpan {
  id: string;
  parent?: string;
  name: string;
  start: bigint;
  end: bigint;
  attributes: Record<string, string>;
}

/** A rollout as its trace tells it: what the real traces carry and nothing else. */
export interface PlainRollout {
  prompt: string;
  reward: number;
  status: string;
  start: bigint;
  end: bigint;
  turns: { thinking: string; calls: { name: string; arguments: string; result: string }[] }[];
}

type RawSpan = TraceSpan & {
  context?: { span_id: string };
  parent_id?: string | null;
  start_time?: number | string;
  end_time?: number | string;
};

export function plainSpan(span: RawSpan): PlainSpan {
  const attributes: Record<string, string> = {};
  if (Array.isArray(span.attributes)) for (const a of span.attributes) attributes[a.key] = String(a.value?.string_value);
  else for (const [k, v] of Object.entries(span.attributes ?? {})) attributes[k] = String(v);
  return {
    id: span.span_id ?? span.context?.span_id ?? '',
    parent: span.parent_span_id ?? span.parent_id ?? undefined,
    name: span.name ?? '',
    start: BigInt(span.start_time_unix_nano ?? span.start_time ?? 0),
    end: BigInt(span.end_time_unix_nano ?? span.end_time ?? 0),
    attributes,
  };
}

/** The raw `traces.json` text: its nanosecond times are read as digits, never through a double. */
export function rawSpans(text: string): PlainSpan[] {
  const exact = text.replace(/"(start_time|end_time)": (\d+)/g, '"$1": "$2"');
  return (JSON.parse(exact) as { spans: RawSpan[] }).spans.map(plainSpan);
}

export function rolloutOfSpans(spans: readonly PlainSpan[]): PlainRollout {
  const root = spans.find((s) => !s.parent)!;
  const turns = spans
    .filter((s) => s.parent === root.id)
    .map((turn) => ({
      thinking: (JSON.parse(turn.attributes['mlflow.spanOutputs']) as { thinking: string }).thinking,
      calls: spans
        .filter((s) => s.parent === turn.id)
        .map((call) => ({
          name: call.name,
          arguments: (JSON.parse(call.attributes['mlflow.spanInputs']) as { arguments: string }).arguments,
          result: (JSON.parse(call.attributes['mlflow.spanOutputs']) as { result: string }).result,
        })),
    }));
  return {
    prompt: (JSON.parse(root.attributes['mlflow.spanInputs']) as { prompt: string }).prompt,
    reward: Number(root.attributes.reward),
    status: root.attributes.status,
    start: root.start,
    end: root.end,
    turns,
  };
}

export const rolloutOfTrace = (trace: Trace) => rolloutOfSpans((trace.spans ?? []).map((s) => plainSpan(s)));
