import type { Transcript, Turn } from '../transcript/model';
import { evidence, offeredTools, READ_CHARS } from './text';
import type { ScanMark } from './types';
import { asFields } from '../text/json';

// A tool call the model wrote as text instead of making it: chat-template markers, a JSON call object, or a line
// calling a tool the agent has (`search("refund policy")`), in a turn that made no call.

/** The markers chat templates wrap a call in (Qwen/Hermes, Llama, Mistral, Anthropic-style). */
const MARKERS = /<tool_call>|<\|tool_call\|>|<function=|\[TOOL_CALLS\]|<\|python_tag\|>|<tool_use>|<invoke name=/;
/** Where a JSON call object opens. */
const JSON_CALL = /\{\s*"(?:name|tool|tool_name|function|action)"\s*:/;
const ARGUMENT_KEYS = ['arguments', 'parameters', 'args', 'input', 'tool_input', 'action_input'];
/** One line that is a call: `name(…)`, optionally after `Action:`. */
const CALL_LINE = /^\s*(?:Action:\s*)?([A-Za-z_][\w.]*)\s*\(.*\)\s*;?\s*$/;

function isCallObject(v: unknown): boolean {
  const o = asFields(Array.isArray(v) ? v[0] : v);
  if (!o) return false;
  const fn = asFields(o.function);
  if (fn && typeof fn.name === 'string') return true;
  const named = ['name', 'tool', 'tool_name', 'function', 'action'].some((k) => typeof o[k] === 'string');
  return named && ARGUMENT_KEYS.some((k) => k in o);
}

/** The JSON call object in a text (bare, fenced, or after a few words), when there is one. */
function hasJsonCall(text: string): boolean {
  const open = text.search(JSON_CALL);
  if (open < 0) return false;
  const close = text.lastIndexOf('}');
  if (close < open) return false;
  const start = open > 0 && text[open - 1] === '[' ? open - 1 : open;
  const end = text[close + 1] === ']' && start < open ? close + 2 : close + 1;
  try {
    return isCallObject(JSON.parse(text.slice(start, end)));
  } catch {
    return false;
  }
}

/** True when the text is a tool call written out; `tools` are the names the agent has (called or offered). */
export function looksLikeToolCall(text: string, tools: ReadonlySet<string>): boolean {
  const t = text.length > READ_CHARS ? text.slice(0, READ_CHARS) : text;
  if (MARKERS.test(t) || hasJsonCall(t)) return true;
  if (!tools.size || !t.includes('(')) return false;
  for (const line of t.split('\n')) {
    const m = CALL_LINE.exec(line);
    if (m && tools.has(m[1])) return true;
  }
  return false;
}

/** The tools this rollout shows the agent has: the ones it called, and the ones its record offers. */
export function knownTools(t: Transcript): Set<string> {
  const tools = new Set(offeredTools(t.fields));
  for (const turn of t.turns) for (const call of turn.toolCalls) tools.add(call.name);
  return tools;
}

const writtenCall = (turn: Turn, tools: ReadonlySet<string>): boolean =>
  !turn.toolCalls.length && !!turn.text && looksLikeToolCall(turn.text, tools);

export function toolCallAsText(t: Transcript): ScanMark | undefined {
  let tools: Set<string> | undefined;
  for (let i = 0; i < t.turns.length; i++) {
    const turn = t.turns[i];
    if (turn.toolCalls.length || !turn.text) continue;
    tools ??= knownTools(t);
    if (writtenCall(turn, tools)) return { kind: 'tool-call-as-text', turn: i, evidence: evidence(turn.text) };
  }
  return undefined;
}

/** An agent that answers in text ended without one: its last turn says nothing, or only a call written as text. */
export function noFinalAnswer(t: Transcript): ScanMark | undefined {
  if (t.status !== 'completed' || !t.turns.some((turn) => turn.text?.trim())) return undefined;
  const i = t.turns.length - 1;
  const last = t.turns[i];
  if (last.text?.trim() && !writtenCall(last, knownTools(t))) return undefined;
  return {
    kind: 'no-final-answer',
    turn: i,
    evidence: last.toolCalls.length ? `ended on a call of ${last.toolCalls[0].name}` : 'ended without text',
  };
}
