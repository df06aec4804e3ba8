// JSON from outside (logs, traces, saved transcripts, scenario files, tool arguments) is nested at most this deep:
// deeper values overflow the stack of every recursive reader after the parse (JSON.stringify included).

/** A JSON object's values by name. */
export type Fields = Record<string, unknown>;

/** A JSON object (not an array, null or a scalar) as its fields, else undefined. */
export const asFields = (v: unknown): Fields | undefined => (isFields(v) ? v : undefined);

/** Whether a value is a JSON object: not an array, null or a scalar. */
export function isFields(v: unknown): v is Fields {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Levels of arrays and objects a JSON value from outside may hold; real traces and records use a few dozen. */
export const MAX_JSON_DEPTH = 256;

/** What a deeper value is, in the words sentences quote. */
export const JSON_TOO_DEEP = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;

/** Thrown for a value nested past MAX_JSON_DEPTH: callers that catch JSON.parse's SyntaxError catch it too. */
export class JsonTooDeep extends SyntaxError {
  constructor() {
    super(`${JSON_TOO_DEEP} is not read`);
  }
}

/**
 * Whether a parsed value nests deeper than `max`. Recursion is bounded by `max` (256 frames), so it cannot overflow; a
 * stack of pairs cost a tenth of reading 100,000 trace files.
 */
function deeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max === 0) return true;
  if (Array.isArray(value)) {
    for (const child of value) if (typeof child === 'object' && child !== null && deeperThan(child, max - 1)) return true;
    return false;
  }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null && deeperThan(child, max - 1)) return true;
  }
  return false;
}

/** JSON.parse for text from outside: throws SyntaxError for text that is not JSON, JsonTooDeep for a value nested past the limit. */
export function parseOutsideJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  // Each level takes two characters at least: shorter text cannot be too deep.
  if (text.length > 2 * MAX_JSON_DEPTH && deeperThan(value, MAX_JSON_DEPTH)) throw new JsonTooDeep();
  return value;
}

/** Where Python's json wrote a float JSON has no word for, and the value read with it as null. */
export interface PythonJson {
  value: unknown;
  /** The first `NaN`, `Infinity` or `-Infinity`: its offset and text. */
  offset: number;
  token: string;
}

const PYTHON_FLOATS = ['NaN', 'Infinity', '-Infinity'];

/**
 * Text that JSON.parse refused, read as Python's json reads it: `json.dumps` writes NaN, Infinity and -Infinity for such
 * floats (a missing value in pandas), and Python's readers take them back. Undefined when there is none, or the text is
 * not JSON even with them read as null.
 */
export function parsePythonJson(text: string): PythonJson | undefined {
  let out = '';
  let from = 0;
  let first: { offset: number; token: string } | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: its escapes skipped, so a quoted "NaN" stays text.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (c !== 0x4e && c !== 0x49 && c !== 0x2d) continue;
    const token = PYTHON_FLOATS.find((t) => text.startsWith(t, i));
    if (!token) continue;
    first ??= { offset: i, token };
    out += `${text.slice(from, i)}null`;
    from = i + token.length;
    i = from - 1;
  }
  if (!first) return undefined;
  try {
    return { value: JSON.parse(out + text.slice(from)), ...first };
  } catch {
    return undefined;
  }
}
