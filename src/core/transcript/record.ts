import type { ToolCall, Transcript, TranscriptStatus, Turn } from './model';
import { asFields, parseOutsideJson } from '../text/json';

// The agent's own rollout record (one JSON log line marked `mtrl_rollout`), read as a transcript. A record's turns are
// either generic (`{thinking, text, tool_calls: [{name, arguments, result, error}]}`) or the older one-move form
// (a flat object of one move): that move becomes one call of the tool `action` with the turn's fields as its arguments.

/** The tool a record's one-move turn is a call of (the record names none). */
export const RECORD_MOVE_TOOL = 'action';

/** Turns read per record: more is not one rollout (and a pack's per-turn work grows with it). */
export const MAX_RECORD_TURNS = 256;

/** Record fields this model has a place for; the rest go to `fields` for the packs. */
const KNOWN = new Set([
  'mtrl_rollout',
  'trajectory_id',
  'job_arn',
  'turns',
  'reward',
  'step',
  'metrics',
  'prompt',
  'status',
  'error',
  'row_id',
]);

const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A step as records and traces write it: a non-negative integer, or its decimal string. */
export function stepNumber(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** Layers of JSON text decoded at most: a result JSON-encoded twice (a string holding the JSON of a string) is common. */
const MAX_ENCODINGS = 3;

/**
 * JSON text parsed, anything else as it is: tool arguments and results arrive as either. A JSON string is decoded too,
 * and what it holds in turn (JSON or text), so `"\"Refund issued: 42.00\""` reads as the text itself.
 */
export function jsonOrText(v: unknown): unknown {
  let value = v;
  for (let layer = 0; layer < MAX_ENCODINGS && typeof value === 'string'; layer++) {
    const c = value.charCodeAt(0);
    // Only text that can be a JSON object, array or string is tried: a throw per plain-text result is the slow part.
    if (c !== 123 && c !== 91 && c !== 34) break;
    try {
      value = parseOutsideJson(value);
    } catch {
      break;
    }
  }
  return value;
}

/** A reward value as a number: a number, or its text (Python's `inf` and `nan` too); undefined for anything else. */
function rewardNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const python = /^\s*([-+]?)(inf|infinity|nan)\s*$/i.exec(v);
  if (python) return python[2].toLowerCase() === 'nan' ? NaN : python[1] === '-' ? -Infinity : Infinity;
  const n = Number(v);
  return Number.isNaN(n) ? undefined : n;
}

/**
 * The SDK's reward: a number, or a list of per-turn rewards (summed). Infinite, NaN and huge rewards are kept: the
 * reward rule (core/numberRules.ts) names them where rollouts are reported, instead of a rollout silently dropped.
 */
export function rewardOf(v: unknown): { reward?: number; perTurn?: number[] } {
  const n = rewardNumber(v);
  if (n !== undefined) return { reward: n };
  const list = Array.isArray(v) ? v.map(rewardNumber) : [];
  if (!list.length || list.some((x) => x === undefined)) return {};
  const perTurn = list as number[];
  return perTurn.length === 1 ? { reward: perTurn[0] } : { reward: perTurn.reduce((a, b) => a + b, 0), perTurn };
}

export function toolCallOf(v: unknown): ToolCall | undefined {
  const c = asFields(v);
  if (!c) return undefined;
  const fn = asFields(c.function);
  const name = text(c.name) ?? text(fn?.name) ?? 'tool';
  const call: ToolCall = { name, arguments: jsonOrText(c.arguments ?? c.input ?? fn?.arguments ?? {}) };
  if (c.result !== undefined || c.output !== undefined) call.result = jsonOrText(c.result ?? c.output);
  if (c.error !== undefined && c.error !== null) call.error = typeof c.error === 'string' ? c.error : JSON.stringify(c.error);
  return call;
}

function turnOf(v: unknown): Turn | undefined {
  const t = asFields(v);
  if (!t) return undefined;
  const calls = t.tool_calls ?? t.toolCalls;
  if (!Array.isArray(calls) && t.thinking === undefined && t.text === undefined)
    return { toolCalls: [{ name: text(t.tool) ?? RECORD_MOVE_TOOL, arguments: t }] };
  const turn: Turn = { toolCalls: Array.isArray(calls) ? calls.map(toolCallOf).filter((c): c is ToolCall => !!c) : [] };
  if (typeof t.thinking === 'string') turn.thinking = t.thinking;
  if (typeof t.text === 'string') turn.text = t.text;
  const reward = finite(t.reward);
  if (reward !== undefined) turn.reward = reward;
  const finish = text(t.finish_reason) ?? text(t.stop_reason);
  if (finish) turn.finishReason = finish;
  return turn;
}

export function statusOf(v: unknown): TranscriptStatus {
  return v === 'error' || v === 'failed' ? 'error' : v === 'skipped' ? 'skipped' : 'completed';
}

/** A parsed JSON object as a transcript, when it carries the `mtrl_rollout` marker and a reward; else undefined. */
export function transcriptFromRecord(value: unknown): Transcript | undefined {
  const r = asFields(value);
  if (!r || r.mtrl_rollout === undefined) return undefined;
  const { reward, perTurn } = rewardOf(r.reward);
  if (reward === undefined) return undefined;
  // A record without an id is still a rollout: the collector names it by position.
  const id = typeof r.trajectory_id === 'string' || typeof r.trajectory_id === 'number' ? String(r.trajectory_id) : '';
  const turns: Turn[] = [];
  if (Array.isArray(r.turns))
    for (let i = 0; i < r.turns.length && i < MAX_RECORD_TURNS; i++) {
      const turn = turnOf(r.turns[i]);
      if (turn) turns.push(turn);
    }
  if (perTurn) perTurn.forEach((x, i) => turns[i] && (turns[i].reward = x));
  const t: Transcript = {
    id,
    task: { prompt: text(r.prompt) ?? '' },
    groupKey: '',
    reward,
    status: statusOf(r.status),
    turns,
    source: 'record',
  };
  const jobArn = text(r.job_arn);
  if (jobArn) t.jobArn = jobArn;
  const rowId = typeof r.row_id === 'number' ? String(r.row_id) : text(r.row_id);
  if (rowId) t.task.id = rowId;
  if (typeof r.error === 'string') t.error = r.error;
  const step = stepNumber(r.step);
  if (step !== undefined) {
    t.step = step;
    t.stepFrom = 'record';
  }
  let fields: Record<string, unknown> | undefined;
  for (const key in r) if (!KNOWN.has(key)) (fields ??= {})[key] = r[key];
  if (fields) t.fields = fields;
  const metrics = asFields(r.metrics);
  if (metrics) t.metrics = metrics;
  else {
    // The record's reward parts (outcome, shaping) are what a result's metrics hold for other agents.
    const outcome = finite(r.outcome);
    const shaping = finite(r.shaping);
    if (outcome !== undefined) (t.metrics ??= {}).outcome = outcome;
    if (shaping !== undefined) (t.metrics ??= {}).shaping = shaping;
  }
  return t;
}
