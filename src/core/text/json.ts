// JSON from outside (logs, traces, saved transcripts, scenario files, tool arguments) is nested at most this deep:
// deeper values overflow the stack of every recursive reader after the parse (JSON.stringify included).

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

/** Whether a parsed value nests deeper than `max`, found without recursion (the point is to not overflow). */
function deeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
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
