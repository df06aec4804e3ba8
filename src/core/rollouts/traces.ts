import type { Transcript, Turn } from '../transcript/model';
import { jsonOrText, rewardOf, stepNumber } from '../transcript/record';
import { byStart, decoded, readSpan, rootOf, SpanCall, SpanTurn, type TraceSpan } from './spans';
import { restTraceIdOf } from './traceIds';
import { asFields, type Fields } from '../text/json';

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

export type { SpanValue, TraceSpan } from './spans';

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

/** Fields a trace does not give, read and never written: one object for all, not two new ones per rollout. */
const NONE: Fields = Object.freeze({});

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
  const payload = asFields(decoded(root?.inputs)) ?? asFields(jsonOrText(info?.request_preview)) ?? NONE;
  const answer = asFields(decoded(root?.outputs)) ?? asFields(jsonOrText(info?.response_preview)) ?? NONE;
  const metadata = asFields(payload.metadata) ?? NONE;
  const assessed = info?.assessments?.find((a) => a.assessment_name === 'reward')?.feedback?.value;
  const { reward, perTurn } = rewardOf(root?.reward ?? answer.reward ?? assessed);
  const status = statusOf(root?.status ?? answer.status, info);
  const id = metadata.rolloutId ?? metadata.trajectory_id ?? info?.client_request_id ?? info?.trace_id ?? restTraceId(trace.spans?.[0]);
  if (!id || (reward === undefined && status !== 'error')) return undefined;
  const turns: Turn[] = [];
  const turnSpans = new TurnSpans();
  for (const span of spans) {
    if (span === root) continue;
    if (isTurnName(span.name)) {
      const turn = new SpanTurn(span);
      turns.push(turn);
      turnSpans.add(span.id, turn);
      continue;
    }
    // Once a turn span was read, every call has a turn: its parent's, else the newest.
    if (turnSpans.count) (turnSpans.holding(span.parent) ?? turns.at(-1)!).toolCalls.push(new SpanCall(span));
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

/**
 * A trace's turn spans by span id. A tool span's parent is nearly always the newest turn, told by one comparison: a map
 * per rollout hashed every span id (about 60 ms of 100,000 trace folders' read, in `perf`). The map is built only for
 * a call whose parent is an older turn.
 */
class TurnSpans {
  private readonly ids: string[] = [];
  private readonly turns: SpanTurn[] = [];
  private byId?: Map<string, SpanTurn>;

  get count(): number {
    return this.ids.length;
  }

  add(id: string, turn: SpanTurn): void {
    this.ids.push(id);
    this.turns.push(turn);
    this.byId?.set(id, turn);
  }

  holding(parent: string | undefined): SpanTurn | undefined {
    if (!parent) return undefined;
    if (this.ids.at(-1) === parent) return this.turns.at(-1);
    this.byId ??= new Map(this.ids.map((id, i) => [id, this.turns[i]]));
    return this.byId.get(parent);
  }
}

/** `/^turn[-_ ]?\d+$/i` without a regex: asked of every span of every trace (900,000 on 100,000 trace folders). */
function isTurnName(name: string): boolean {
  for (let i = 0; i < 4; i++) if ((name.charCodeAt(i) | 0x20) !== 'turn'.charCodeAt(i)) return false;
  const c = name.charCodeAt(4);
  const first = c === 0x2d || c === 0x5f || c === 0x20 ? 5 : 4;
  if (name.length <= first) return false;
  for (let i = first; i < name.length; i++) {
    const d = name.charCodeAt(i);
    if (d < 0x30 || d > 0x39) return false;
  }
  return true;
}

/** A raw artifact's trace id as the REST API names the same trace, so both forms agree. */
function restTraceId(span: TraceSpan | undefined): string | undefined {
  const raw = span?.context?.trace_id ?? span?.trace_id;
  return raw ? restTraceIdOf(raw) : undefined;
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
