import { parseFeedbackLine } from '../wordle';
import { MAX_RECORD_TURNS, rolloutFromRecord, stepNumber, type Rollout, type RolloutTurn } from './record';

// MLflow 3's trace as its REST API sends it (`traces/search` gives the info, `traces/batchGet` the info and the spans),
// and how one trace of a rollout becomes the rollout the board and `mtrl rollouts` read.

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

/** An OpenTelemetry span as MLflow sends it; MLflow writes every attribute value as JSON text (`mlflow.spanInputs`, …). */
export interface TraceSpan {
  span_id?: string;
  parent_span_id?: string;
  name?: string;
  start_time_unix_nano?: string | number;
  end_time_unix_nano?: string | number;
  attributes?: { key: string; value?: SpanValue }[] | Record<string, unknown>;
}

export interface Trace {
  trace_info: TraceInfo;
  spans?: TraceSpan[];
}

/** The metadata or tag keys a trace may name its training step by, and the step key of the invocation's `metadata`. */
export const TRACE_STEP_KEYS = ['mtrl.step', 'step'] as const;
/** The metadata key MLflow links a trace to its run by (what `search_traces(run_id=…)` filters on). */
export const TRACE_RUN_KEY = 'mlflow.sourceRun';

type Fields = Record<string, unknown>;

const asFields = (v: unknown): Fields | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : undefined);

function parsed(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function spanValue(value: SpanValue | undefined): unknown {
  if (!value) return undefined;
  if (value.string_value !== undefined) return value.string_value;
  if (value.int_value !== undefined) return Number(value.int_value);
  return value.double_value ?? value.bool_value;
}

/** A span's attributes by key, each JSON-decoded where it is JSON text. */
function attributesOf(span: TraceSpan): Fields {
  const out: Fields = {};
  if (Array.isArray(span.attributes)) for (const a of span.attributes) out[a.key] = parsed(spanValue(a.value));
  else for (const [key, value] of Object.entries(span.attributes ?? {})) out[key] = parsed(value);
  return out;
}

interface ReadSpan {
  root: boolean;
  start: number;
  inputs: unknown;
  outputs: unknown;
}

function readSpan(span: TraceSpan): ReadSpan {
  const attributes = attributesOf(span);
  return {
    root: !span.parent_span_id,
    start: Number(span.start_time_unix_nano ?? 0) || 0,
    inputs: attributes['mlflow.spanInputs'],
    outputs: attributes['mlflow.spanOutputs'],
  };
}

/** A tool span's guess and what the game answered: `{guess}` in, the feedback text (or `{marks, valid}`) out. */
function turnOf(span: ReadSpan): RolloutTurn | undefined {
  const guess = asFields(span.inputs)?.guess;
  if (typeof guess !== 'string') return undefined;
  const out = asFields(span.outputs);
  const feedback = typeof span.outputs === 'string' ? span.outputs : typeof out?.feedback === 'string' ? out.feedback : undefined;
  const read = feedback
    ?.split(/\r?\n/)
    .map(parseFeedbackLine)
    .find((t) => t);
  const turn: RolloutTurn = { guess };
  const marks = out?.marks ?? read?.marks;
  if (typeof marks === 'string') turn.marks = marks;
  if (out?.valid === false || read?.valid === false) turn.valid = false;
  if (read?.repeated) turn.repeated = true;
  return turn;
}

function firstNumber(v: unknown): number | undefined {
  const n = Array.isArray(v) ? v[0] : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** Epoch ms of a protobuf Timestamp (RFC 3339 text) plus a Duration ("1.5s"), or undefined. */
function endTime(info: TraceInfo): number | undefined {
  const start = info.request_time ? Date.parse(info.request_time) : NaN;
  if (!Number.isFinite(start)) return undefined;
  const seconds = /^(\d+(?:\.\d+)?)s$/.exec(info.execution_duration ?? '')?.[1];
  return start + (seconds ? Math.round(Number(seconds) * 1000) : 0);
}

/** The step a trace names: its metadata, its tags, else the invocation's `metadata.step`. */
function stepOf(info: TraceInfo, payload: Fields): number | undefined {
  for (const map of [info.trace_metadata, info.tags])
    for (const key of TRACE_STEP_KEYS) {
      const step = stepNumber(map?.[key]);
      if (step !== undefined) return step;
    }
  return stepNumber(asFields(payload.metadata)?.step);
}

/**
 * A rollout from its MLflow trace: the root span's inputs are the invocation payload (`prompt` = the dataset row as
 * JSON, `metadata.rolloutId` / `jobArn`), its outputs the agent's answer (`{"reward": r}`); the turns are the tool spans
 * with a `guess` input, in start order. Previews stand in for a trace read without spans. Undefined without a reward.
 */
export function rolloutFromTrace(trace: Trace): Rollout | undefined {
  const info = trace.trace_info;
  if (!info?.trace_id) return undefined;
  const spans = (trace.spans ?? []).map(readSpan).sort((a, b) => a.start - b.start);
  const root = spans.find((s) => s.root);
  const payload = asFields(root?.inputs) ?? asFields(parsed(info.request_preview)) ?? {};
  const answer = asFields(root?.outputs) ?? asFields(parsed(info.response_preview)) ?? {};
  const metadata = asFields(payload.metadata) ?? {};
  const row = asFields(parsed(payload.prompt)) ?? {};
  const assessed = info.assessments?.find((a) => a.assessment_name === 'reward')?.feedback?.value;
  const turns: RolloutTurn[] = [];
  for (const span of spans) {
    if (span === root || turns.length >= MAX_RECORD_TURNS) continue;
    const turn = turnOf(span);
    if (turn) turns.push(turn);
  }
  const solvedBy = turns.find((t) => t.marks === 'GGGGG')?.guess;
  const rollout = rolloutFromRecord({
    mtrl_rollout: 1,
    trajectory_id: metadata.rolloutId ?? info.client_request_id ?? info.trace_id,
    job_arn: metadata.jobArn,
    row_id: row.id,
    answer: row.answer ?? solvedBy,
    turns,
    reward: firstNumber(answer.reward) ?? firstNumber(assessed),
  });
  if (!rollout) return undefined;
  const step = stepOf(info, payload);
  if (step !== undefined) {
    rollout.step = step;
    rollout.stepFrom = 'trace';
  }
  const time = endTime(info);
  if (time !== undefined) rollout.time = time;
  return rollout;
}
