/** Where a JSON text goes wrong: an offset into the text and a sentence. Found by our own scanner so positions are exact on every engine. */
export interface JsonError {
  offset: number;
  message: string;
  /** Set when the text ended inside a string: more text might complete it, though `offset` points at its opening quote. */
  unterminated?: true;
}

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

export function skipWhitespace(text: string, i: number, end: number): number {
  while (i < end && isWs(text.charCodeAt(i))) i++;
  return i;
}

function describe(text: string, i: number, end: number): string {
  return i >= end ? 'the end of the text' : `'${text[i]}'`;
}

/** End (exclusive) of the string literal whose opening quote is at `i`. */
function scanString(text: string, i: number, end: number): number | JsonError {
  let j = i + 1;
  while (j < end) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c === 0x5c) {
      const e = text[j + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6)) || j + 6 > end)
          return { offset: j, message: 'A \\u escape needs four hex digits' };
        j += 6;
      } else if (e !== undefined && j + 1 < end && '"\\/bfnrt'.includes(e)) j += 2;
      else return { offset: j, message: `Invalid escape '\\${e ?? ''}' in a string` };
    } else if (c < 0x20)
      return { offset: j, message: 'A control character (such as a raw tab or newline) inside a string must be escaped' };
    else j++;
  }
  return { offset: i, message: 'Unterminated string: the closing quote is missing', unterminated: true };
}

function scanNumber(text: string, i: number, end: number): number | JsonError {
  const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  match.lastIndex = i;
  const m = match.exec(text);
  if (!m || m[0] === '-' || i + m[0].length > end) return { offset: i, message: 'Invalid number' };
  return i + m[0].length;
}

/** Index of the value after a member key and its colon, starting at the key's quote. */
function scanMemberKey(text: string, i: number, end: number): number | JsonError {
  if (text.charCodeAt(i) !== 0x22)
    return { offset: i, message: `Expected a property name in double quotes, found ${describe(text, i, end)}` };
  const k = scanString(text, i, end);
  if (typeof k !== 'number') return k;
  const colon = skipWhitespace(text, k, end);
  if (text.charCodeAt(colon) !== 0x3a || colon >= end)
    return { offset: colon, message: `Expected ':' after the property name, found ${describe(text, colon, end)}` };
  return skipWhitespace(text, colon + 1, end);
}

/** Words that stand for a value: JSON's, and the floats Python's json writes and reads (`parsePythonJson` reads them as null). */
const WORDS = ['true', 'false', 'null', 'NaN', 'Infinity', '-Infinity'];

/**
 * End (exclusive) of the JSON value starting at `start` (after whitespace), or where it goes wrong. Iterative: deep
 * nesting cannot overflow the stack. NaN and ±Infinity pass, as Python reads them: the error found is the one that is not.
 */
export function scanValue(text: string, start: number, end = text.length): number | JsonError {
  const stack: boolean[] = []; // true: inside an object
  let i = skipWhitespace(text, start, end);
  for (;;) {
    if (i >= end) return { offset: i, message: 'Unexpected end: a value is missing' };
    const c = text.charCodeAt(i);
    let closed = false;
    if (c === 0x7b || c === 0x5b) {
      const object = c === 0x7b;
      i = skipWhitespace(text, i + 1, end);
      if (i < end && text.charCodeAt(i) === (object ? 0x7d : 0x5d)) {
        i++;
        closed = true;
      } else {
        stack.push(object);
        if (object) {
          const v = scanMemberKey(text, i, end);
          if (typeof v !== 'number') return v;
          i = v;
        }
        continue;
      }
    }
    if (!closed) {
      let next: number | JsonError;
      if (c === 0x22) next = scanString(text, i, end);
      else if ((c === 0x2d && !text.startsWith('-Infinity', i)) || (c >= 0x30 && c <= 0x39)) next = scanNumber(text, i, end);
      else {
        const word = WORDS.find((w) => text.startsWith(w, i) && i + w.length <= end);
        next = word
          ? i + word.length
          : {
              offset: i,
              message: `Unexpected ${describe(text, i, end)}: expected a value (object, array, string, number, true, false or null)`,
            };
      }
      if (typeof next !== 'number') return next;
      i = next;
    }
    // After a value: close containers or move to the next element.
    for (;;) {
      if (!stack.length) return i;
      i = skipWhitespace(text, i, end);
      const object = stack[stack.length - 1];
      const d = text.charCodeAt(i);
      if (i < end && d === 0x2c) {
        i = skipWhitespace(text, i + 1, end);
        if (object) {
          const v = scanMemberKey(text, i, end);
          if (typeof v !== 'number') return v;
          i = v;
        }
        break;
      }
      if (i < end && d === (object ? 0x7d : 0x5d)) {
        stack.pop();
        i++;
        continue;
      }
      const closer = object ? '}' : ']';
      return {
        offset: i,
        message: i >= end ? `Unexpected end: a '${closer}' is missing` : `Expected ',' or '${closer}', found ${describe(text, i, end)}`,
      };
    }
  }
}

/** The first error in a text that should hold exactly one JSON value, or undefined when it parses. */
export function findJsonError(text: string, start = 0, end = text.length): JsonError | undefined {
  const r = scanValue(text, start, end);
  if (typeof r !== 'number') return r;
  const rest = skipWhitespace(text, r, end);
  return rest < end ? { offset: rest, message: `Unexpected ${describe(text, rest, end)} after the end of the JSON value` } : undefined;
}

/** Offsets [start, end) of the value of a top-level property of the (valid) object at `objectStart`. */
export function propertyValueRange(text: string, objectStart: number, key: string, end = text.length): [number, number] | undefined {
  let i = skipWhitespace(text, objectStart, end);
  if (text.charCodeAt(i) !== 0x7b) return undefined;
  i = skipWhitespace(text, i + 1, end);
  while (i < end && text.charCodeAt(i) === 0x22) {
    const keyEnd = scanString(text, i, end);
    if (typeof keyEnd !== 'number') return undefined;
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    const valueStart = skipWhitespace(text, skipWhitespace(text, keyEnd, end) + 1, end);
    const valueEnd = scanValue(text, valueStart, end);
    if (typeof valueEnd !== 'number') return undefined;
    if (name === key) return [valueStart, valueEnd];
    i = skipWhitespace(text, valueEnd, end);
    if (text.charCodeAt(i) !== 0x2c) return undefined;
    i = skipWhitespace(text, i + 1, end);
  }
  return undefined;
}

/** Offset in the raw text of the character at `decodedIndex` of the string literal whose quote is at `quote`. */
export function rawIndexInString(text: string, quote: number, decodedIndex: number): number {
  let raw = quote + 1;
  for (let n = 0; n < decodedIndex && raw < text.length && text.charCodeAt(raw) !== 0x22; n++) {
    raw += text.charCodeAt(raw) === 0x5c ? (text[raw + 1] === 'u' ? 6 : 2) : 1;
  }
  return raw;
}
