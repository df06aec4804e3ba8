import type { ToolCall } from '../transcript/model';

/** Characters of a text or result a scanner reads: what shows a pattern is at its start, and 100,000 rollouts must scan fast. */
export const READ_CHARS = 4000;
const EVIDENCE_CHARS = 160;

/** A tool result (or any value) as text, cut at READ_CHARS. */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.length > READ_CHARS ? text.slice(0, READ_CHARS) : text;
}

/** What a call said back: its error and its result, as text. */
export function callOutput(call: ToolCall): string {
  const result = textOf(call.result);
  return call.error ? (result ? `${call.error}\n${result}` : call.error) : result;
}

/** A short quote of what shows a finding, on one line. */
export function evidence(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > EVIDENCE_CHARS ? `${line.slice(0, EVIDENCE_CHARS - 1)}…` : line;
}

const asFields = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The name of a tool as a tools list gives it: `"search"`, `{name}`, or OpenAI's `{function: {name}}`. */
function toolName(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  const fields = asFields(v);
  const name = fields?.name ?? asFields(fields?.function)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** The tools the agent offers, when its record says (a `tools` field: names or tool specs); undefined when unknown. */
export function offeredTools(fields: Record<string, unknown> | undefined): Set<string> | undefined {
  const list = fields?.tools;
  if (!Array.isArray(list)) return undefined;
  const names = list.map(toolName).filter((n): n is string => !!n);
  return names.length ? new Set(names) : undefined;
}
