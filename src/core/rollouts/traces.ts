import type { ToolCall, Transcript, Turn } from '../transcript/model';
import { jsonOrText, rewardOf, stepNumber } from '../transcript/record';

// MLflow traces as the service writes them (one per rollout) and how one becomes a transcript: the REST API's
// `traces/search` (info) and `traces/batchGet` (info and spans), and the raw `traces.json` artifact (spans only).

/** `TraceInfoV3`: times are protobuf JSON (RFC 3339 text, a duration like "1.5s"); metadata and tags are string maps. */
export interface TraceInfo {
  trace_id: string;
  client_request_id?: string;
  trace_location?: { type?: string; mlflow_experiment?: { experiment_id?: string } };
  /** The request and response as JSON text, cut to a preview length by the server. */
  request_preview?: string;
  response_preview?: string;
  request_time?: string;
  execution_duration?: string;
  state?: string;
  trace_metadata?: Record<string, string>;
  tags?: Record<string, string>;
  assessments?: { assessment_name?: string; feedback?: { value?: unknown } }[];
}

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

/** A trace as any source holds it: the REST form has its info, a raw `traces.json` artifact only its spans. */
export interface TraceDocument {
  trace_info?: TraceInfo;
  spans?: TraceSpan[];
}

export interface Trace extends TraceDocument {
  trace_info: TraceInfo;
}

/** The metadata or tag keys a trace may name its training step by, and the step key of the invocation's `metadata`. */
export const TRACE_STEP_KEYS = ['mtrl.step', 'step'] as const;
/** The metadata key MLflow links a trace to its run by (what `search_traces(run_id=…)` filters on). */
export const TRACE_RUN_KEY = 'mlflow.sourceRun';
/** The tag naming where the trace's `traces.json` artifact is stored. */
export const TRACE_ARTIFACT_TAG = 'mlflow.artifactLocation';

type Fields = Record<string, unknown>;
const asFields = (v: unknown): Fields | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : undefined);
const TURN = /^turn[-_ ]?\d+$/i;

function spanValue(value: SpanValue | undefined): unknown {
  if (!value) return undefined;
  if (value.string_value !== undefined) return value.string_value;
  if (value.int_value !== undefined) return Number(value.int_value);
  return value.double_value ?? value.bool_value;
}

/** An attribute's value decoded from its JSON text (a quoted string, a number, an object), or the text when it is not JSON. */
function decoded(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const c = v.charCodeAt(0);
  if (c === 34 || c === 123 || c === 91 || c === 45 || (c >= 48 && c <= 57)) {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v;
}

interface ReadSpan {
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
function readSpan(span: TraceSpan): ReadSpan {
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
  else if (attributes) for (const key in attributes) keep(read, key, attributes[key]);
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
class SpanCall implements ToolCall {
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
      this.#result = { value: fields && 'result' in fields ? jsonOrText(fields.result) : outputs };
    }
    return this.#result.value;
  }

  toJSON(): ToolCall {
    const call: ToolCall = { name: this.name, arguments: this.arguments };
    if (this.result !== undefined) call.result = this.result;
    if (this.error) call.error = this.error;
    return call;
  }
}

/** A turn span: the model's thinking and text, decoded on first read like a tool call's result. */
class SpanTurn implements Turn {
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

/** Epoch ms of a protobuf Timestamp (RFC 3339 text) plus a Duration ("1.5s"), or undefined. */
function endTime(info: TraceInfo | undefined): number | undefined {
  const start = info?.request_time ? Date.parse(info.request_time) : NaN;
  if (!Number.isFinite(start)) return undefined;
  const seconds = /^(\d+(?:\.\d+)?)s$/.exec(info?.execution_duration ?? '')?.[1];
  return start + (seconds ? Math.round(Number(seconds) * 1000) : 0);
}

/** The step a trace names: its metadata, its tags, else the invocation's `metadata.step`. */
function stepOf(info: TraceInfo | undefined, metadata: Fields): number | undefined {
  for (const map of [info?.trace_metadata, info?.tags])
    for (const key of TRACE_STEP_KEYS) {
      const step = stepNumber(map?.[key]);
      if (step !== undefined) return step;
    }
  return stepNumber(metadata.step);
}

function statusOf(said: unknown, info: TraceInfo | undefined): Transcript['status'] {
  const s = typeof said === 'string' ? said.toLowerCase() : '';
  if (s.includes('skip')) return 'skipped';
  return s.includes('fail') || s.includes('error') || info?.state === 'ERROR' ? 'error' : 'completed';
}

/** The task from the root's `{"prompt": …}`: the first user message, or (older emulator traces) the dataset row as JSON text. */
function taskOf(prompt: unknown): Transcript['task'] {
  if (typeof prompt !== 'string') return { prompt: '' };
  const row = prompt.charCodeAt(0) === 123 ? asFields(jsonOrText(prompt)) : undefined;
  if (!row) return { prompt };
  const task: Transcript['task'] = { prompt: typeof row.prompt === 'string' ? row.prompt : prompt, row };
  if (typeof row.id === 'string' || typeof row.id === 'number') task.id = String(row.id);
  return task;
}

const byStart = (a: ReadSpan, b: ReadSpan) => a.start - b.start;

/** The root span: `trajectory`, else the first span without a parent among these spans. */
function rootOf(spans: readonly ReadSpan[]): ReadSpan | undefined {
  for (const s of spans) if (s.name === 'trajectory' && !s.parent) return s;
  const ids = new Set(spans.map((s) => s.id));
  for (const s of spans) if (!s.parent || !ids.has(s.parent)) return s;
  return undefined;
}

/**
 * A transcript from one trace: the root span (`trajectory`) gives the task (`{"prompt"}` inputs), the reward (its
 * `reward` attribute, else `{"reward"}` outputs) and the status; each `turn-N` span a turn with the model's thinking; each
 * other span a tool call named after the tool, in the turn that holds it (or its own turn when the trace has no turn
 * spans). Previews stand in for a trace read without spans. Undefined when the rollout has no reward and did not fail.
 */
export function transcriptFromTrace(trace: TraceDocument): Transcript | undefined {
  const info = trace.trace_info;
  const spans = (trace.spans ?? []).map(readSpan);
  let ordered = true;
  for (let i = 1; i < spans.length && ordered; i++) ordered = spans[i - 1].start <= spans[i].start;
  // Artifacts list spans in start order; REST responses need not.
  if (!ordered) spans.sort(byStart);
  const root = rootOf(spans);
  const payload = asFields(decoded(root?.inputs)) ?? asFields(jsonOrText(info?.request_preview)) ?? {};
  const answer = asFields(decoded(root?.outputs)) ?? asFields(jsonOrText(info?.response_preview)) ?? {};
  const metadata = asFields(payload.metadata) ?? {};
  const assessed = info?.assessments?.find((a) => a.assessment_name === 'reward')?.feedback?.value;
  const { reward, perTurn } = rewardOf(root?.reward ?? answer.reward ?? assessed);
  const status = statusOf(root?.status ?? answer.status, info);
  const id = metadata.rolloutId ?? metadata.trajectory_id ?? info?.client_request_id ?? info?.trace_id ?? restTraceId(trace.spans?.[0]);
  if (!id || (reward === undefined && status !== 'error')) return undefined;
  const turns: Turn[] = [];
  const turnById = new Map<string, Turn>();
  for (const span of spans) {
    if (span === root) continue;
    if (TURN.test(span.name)) {
      const turn = new SpanTurn(span);
      turns.push(turn);
      turnById.set(span.id, turn);
      continue;
    }
    const holder = (span.parent && turnById.get(span.parent)) || turns.at(-1);
    if (holder && turnById.size) holder.toolCalls.push(new SpanCall(span));
    else turns.push({ toolCalls: [new SpanCall(span)] });
  }
  if (perTurn) perTurn.forEach((r, i) => turns[i] && (turns[i].reward = r));
  const t: Transcript = { id: String(id), task: taskOf(payload.prompt), groupKey: '', status, turns, source: 'trace' };
  if (reward !== undefined) t.reward = reward;
  const metrics = asFields(answer.metrics);
  if (metrics) t.metrics = metrics;
  const error = typeof answer.error === 'string' ? answer.error : root?.error;
  if (error) t.error = error;
  const jobArn = metadata.jobArn ?? metadata.job_arn;
  if (typeof jobArn === 'string' && jobArn) t.jobArn = jobArn;
  const step = stepOf(info, metadata);
  if (step !== undefined) {
    t.step = step;
    t.stepFrom = 'trace';
  }
  const time = endTime(info) ?? (root?.end ? Math.round(root.end / 1e6) : undefined);
  if (time !== undefined) t.time = time;
  return t;
}

/** A raw artifact's trace id as the REST API names the same trace (`tr-` and the UUID's hex), so both forms agree. */
function restTraceId(span: TraceSpan | undefined): string | undefined {
  const raw = span?.context?.trace_id ?? span?.trace_id;
  if (!raw) return undefined;
  const hex = raw.replace(/-/g, '');
  return /^[0-9a-f]{32}$/i.test(hex) ? `tr-${hex.toLowerCase()}` : raw;
}

/** Where a trace's `traces.json` artifact is (its `mlflow.artifactLocation` tag plus the file name), if it says. */
export function traceArtifactUri(info: TraceInfo): string | undefined {
  const location = info.tags?.[TRACE_ARTIFACT_TAG];
  return location ? `${location.replace(/\/+$/, '')}/traces.json` : undefined;
}

/**
 * The traces in a parsed JSON document, format sniffed: a `traces/search` or `batchGet` response (`{"traces": […]}`),
 * a `GetTrace` response (`{"trace": …}`), one trace (`{trace_info, spans}`), a raw `traces.json` artifact
 * (`{"spans": […]}`), or a list of any of these. Anything else holds none.
 */
export function tracesIn(value: unknown): TraceDocument[] {
  if (Array.isArray(value)) return value.flatMap(tracesIn);
  const v = asFields(value);
  if (!v) return [];
  // `traces/search` lists bare infos; `batchGet` whole traces.
  if (Array.isArray(v.traces))
    return v.traces.flatMap((t: unknown) => (asFields(t)?.trace_id ? [{ trace_info: t as TraceInfo }] : tracesIn(t)));
  if (asFields(v.trace)) return tracesIn(v.trace);
  const info = asFields(v.trace_info) ?? asFields(v.info);
  if (info) return [{ trace_info: info as unknown as TraceInfo, spans: spansOf(v) }];
  return Array.isArray(v.spans) ? [{ spans: v.spans as TraceSpan[] }] : [];
}

function spansOf(v: Fields): TraceSpan[] | undefined {
  const data = asFields(v.data) ?? asFields(v.trace_data);
  const spans = v.spans ?? data?.spans;
  return Array.isArray(spans) ? (spans as TraceSpan[]) : undefined;
}
