import type { ToolCall, Turn } from '../transcript/model';
import { asFields, parseOutsideJson } from '../text/json';
import { jsonOrText } from '../transcript/record';

// One span of a trace, in either encoding, read lazily: only the attributes a transcript needs are kept, and the
// text of tool calls and turns is decoded on first read.

/** An OpenTelemetry attribute value as protobuf JSON writes it. */
export interface SpanValue {
  string_value?: string;
  int_value?: string | number;
  double_value?: number;
  bool_value?: boolean;
}

/**
 * A span in either encoding: MLflow 3's OpenTelemetry form (`span_id`, `parent_span_id`, `start_time_unix_nano`,
 * attributes as a key/value list) or MLflow 2's dict (`context.span_id`, `parent_id`, `start_time` in ns, attributes as
 * an object). MLflow writes every attribute value as JSON text (`mlflow.spanInputs`, …).
 */
export interface TraceSpan {
  span_id?: string;
  parent_span_id?: string | null;
  name?: string;
  start_time_unix_nano?: string | number;
  end_time_unix_nano?: string | number;
  attributes?: { key: string; value?: SpanValue }[] | Record<string, unknown>;
  context?: { span_id?: string; trace_id?: string };
  parent_id?: string | null;
  start_time?: string | number;
  end_time?: string | number;
  trace_id?: string;
  status?: { code?: string; message?: string; status_code?: string; description?: string };
}

function spanValue(value: SpanValue | undefined): unknown {
  if (!value) return undefined;
  if (value.string_value !== undefined) return value.string_value;
  if (value.int_value !== undefined) return Number(value.int_value);
  return value.double_value ?? value.bool_value;
}

/** An attribute's value decoded from its JSON text (a quoted string, a number, an object), or the text when it is not JSON. */
export function decoded(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const c = v.charCodeAt(0);
  if (c === 34 || c === 123 || c === 91 || c === 45 || (c >= 48 && c <= 57)) {
    try {
      return parseOutsideJson(v);
    } catch {
      return v;
    }
  }
  return v;
}

export interface ReadSpan {
  id: string;
  parent?: string;
  name: string;
  start: number;
  end: number;
  /** `mlflow.spanInputs` and `mlflow.spanOutputs` as stored (JSON text): decoded where needed, when needed. */
  inputs: unknown;
  outputs: unknown;
  reward: unknown;
  status: unknown;
  error?: string;
}

/** Only the attributes a transcript needs are kept, none decoded yet: most of a span's text is read only when shown. */
export function readSpan(span: TraceSpan): ReadSpan {
  const read: ReadSpan = {
    id: span.span_id ?? span.context?.span_id ?? '',
    parent: span.parent_span_id ?? span.parent_id ?? undefined,
    name: span.name ?? '',
    start: Number(span.start_time_unix_nano ?? span.start_time ?? 0) || 0,
    end: Number(span.end_time_unix_nano ?? span.end_time ?? 0) || 0,
    inputs: undefined,
    outputs: undefined,
    reward: undefined,
    status: undefined,
  };
  const attributes = span.attributes;
  if (Array.isArray(attributes)) for (const a of attributes) keep(read, a.key, spanValue(a.value));
  else if (attributes) {
    // Read by name, not by a for-in over every key: the loop was a third of building a rollout from its spans.
    read.inputs = attributes['mlflow.spanInputs'];
    read.outputs = attributes['mlflow.spanOutputs'];
    read.reward = decoded(attributes.reward);
    read.status = decoded(attributes.status);
  }
  const code = span.status?.code ?? span.status?.status_code;
  if (code && code.includes('ERROR')) read.error = span.status?.message ?? span.status?.description ?? 'error';
  return read;
}

function keep(read: ReadSpan, key: string, value: unknown): void {
  if (key === 'mlflow.spanInputs') read.inputs = value;
  else if (key === 'mlflow.spanOutputs') read.outputs = value;
  else if (key === 'reward') read.reward = decoded(value);
  else if (key === 'status') read.status = decoded(value);
}

/**
 * A tool span's call: `{"arguments": "<JSON text>"}` in and `{"result": "<JSON text>"}` out, else its inputs and outputs
 * as they are, decoded on first read: a tool's results are most of a trace's text, and a list of 100k rollouts needs
 * none of it. `toJSON` gives the plain call (`--transcripts`, the board's messages).
 */
export class SpanCall implements ToolCall {
  readonly name: string;
  error?: string;
  #args?: { value: unknown };
  #result?: { value: unknown };

  constructor(private readonly span: ReadSpan) {
    this.name = span.name;
    if (span.error) this.error = span.error;
  }

  get arguments(): unknown {
    if (!this.#args) {
      const inputs = decoded(this.span.inputs);
      const fields = asFields(inputs);
      this.#args = { value: fields && 'arguments' in fields ? jsonOrText(fields.arguments) : (inputs ?? {}) };
    }
    return this.#args.value;
  }

  get result(): unknown {
    if (!this.#result) {
      const outputs = decoded(this.span.outputs);
      const fields = asFields(outputs);
      // Outputs that are themselves a JSON string (a result encoded once more) are decoded through the transcript model's rule.
      this.#result = { value: jsonOrText(fields && 'result' in fields ? fields.result : outputs) };
    }
    return this.#result.value;
  }

  /** The stored inputs text while the arguments are not decoded yet: a key for equal calls without decoding them. */
  get argumentsSource(): string | undefined {
    return this.#args || typeof this.span.inputs !== 'string' ? undefined : this.span.inputs;
  }

  toJSON(): ToolCall {
    const call: ToolCall = { name: this.name, arguments: this.arguments };
    if (this.result !== undefined) call.result = this.result;
    if (this.error) call.error = this.error;
    return call;
  }
}

/** A turn span: the model's thinking and text, decoded on first read like a tool call's result. */
export class SpanTurn implements Turn {
  readonly toolCalls: ToolCall[] = [];
  reward?: number;
  #out?: { thinking?: string; text?: string };

  constructor(private readonly span: ReadSpan) {}

  get thinking(): string | undefined {
    return this.read().thinking;
  }

  get text(): string | undefined {
    return this.read().text;
  }

  private read(): { thinking?: string; text?: string } {
    if (this.#out) return this.#out;
    const outputs = decoded(this.span.outputs);
    const fields = asFields(outputs);
    const text = fields ? (fields.text ?? fields.content ?? fields.response) : outputs;
    this.#out = {
      thinking: typeof fields?.thinking === 'string' ? fields.thinking : undefined,
      text: typeof text === 'string' ? text : undefined,
    };
    return this.#out;
  }

  toJSON(): Turn {
    const turn: Turn = { toolCalls: this.toolCalls };
    if (this.thinking !== undefined) turn.thinking = this.thinking;
    if (this.text !== undefined) turn.text = this.text;
    if (this.reward !== undefined) turn.reward = this.reward;
    return turn;
  }
}

export const byStart = (a: ReadSpan, b: ReadSpan) => a.start - b.start;

/** The root span: `trajectory`, else the first span without a parent among these spans. */
export function rootOf(spans: readonly ReadSpan[]): ReadSpan | undefined {
  for (const s of spans) if (s.name === 'trajectory' && !s.parent) return s;
  const ids = new Set(spans.map((s) => s.id));
  for (const s of spans) if (!s.parent || !ids.has(s.parent)) return s;
  return undefined;
}
