import type { ToolCall } from '../transcript/model';
import { asFields } from '../text/json';

/** Characters of a text or result a scanner reads: what shows a pattern is at its start, and 100,000 rollouts must scan fast. */
export const READ_CHARS = 4000;
const EVIDENCE_CHARS = 160;

/** The strings and numbers in a value, a few levels deep: what a pattern is looked for in, without the cost of JSON text. */
function leaves(value: unknown, out: string[], depth: number): void {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (value && typeof value === 'object' && depth < 4)
    for (const key in value as Record<string, unknown>) leaves((value as Record<string, unknown>)[key], out, depth + 1);
}

/** A tool result (or any value) as text, cut at READ_CHARS: a string as it is, an object's leaves joined by spaces. */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    const parts: string[] = [];
    leaves(value, parts, 0);
    text = parts.length === 1 ? parts[0] : parts.join(' ');
  }
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
