/** A JSON value with where it sits in the text, so findings and fixes can point at it. */
export type JsonNode =
  | { type: 'object'; offset: number; length: number; properties: { key: string; keyOffset: number; value: JsonNode }[] }
  | { type: 'array'; offset: number; length: number; items: JsonNode[] }
  | { type: 'string'; offset: number; length: number; value: string }
  | { type: 'other'; offset: number; length: number; value: unknown };

/** Parses JSON keeping offsets; undefined when the text is not JSON (the JSON language server reports that). */
export function parseJsonTree(text: string): JsonNode | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`JSON error at ${i}`);
  };
  const string = (): { value: string; offset: number; length: number } => {
    const start = i;
    // eslint-disable-next-line no-control-regex -- JSON strings may not hold raw control characters
    const m = /^"(?:[^"\\\u0000-\u001f]|\\.)*"/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
    return { value: JSON.parse(m![0]) as string, offset: start, length: m![0].length };
  };
  const value = (): JsonNode => {
    ws();
    const start = i;
    if (text[i] === '{') {
      i++;
      const properties: { key: string; keyOffset: number; value: JsonNode }[] = [];
      ws();
      if (text[i] === '}') i++;
      else
        for (;;) {
          ws();
          const key = string();
          ws();
          if (text[i++] !== ':') fail();
          properties.push({ key: key.value, keyOffset: key.offset, value: value() });
          ws();
          const c = text[i++];
          if (c === '}') break;
          if (c !== ',') fail();
        }
      return { type: 'object', offset: start, length: i - start, properties };
    }
    if (text[i] === '[') {
      i++;
      const items: JsonNode[] = [];
      ws();
      if (text[i] === ']') i++;
      else
        for (;;) {
          items.push(value());
          ws();
          const c = text[i++];
          if (c === ']') break;
          if (c !== ',') fail();
        }
      return { type: 'array', offset: start, length: i - start, items };
    }
    if (text[i] === '"') return { type: 'string', ...string() };
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
    return { type: 'other', offset: start, length: m![0].length, value: JSON.parse(m![0]) };
  };
  try {
    const root = value();
    ws();
    return i === text.length ? root : undefined;
  } catch {
    return undefined;
  }
}

export function property(node: JsonNode | undefined, key: string): JsonNode | undefined {
  return node?.type === 'object' ? node.properties.find((p) => p.key === key)?.value : undefined;
}

/** A string or array of strings as a list of string nodes (IAM allows both). */
export function stringList(node: JsonNode | undefined): Extract<JsonNode, { type: 'string' }>[] {
  if (node?.type === 'string') return [node];
  if (node?.type === 'array') return node.items.filter((n): n is Extract<JsonNode, { type: 'string' }> => n.type === 'string');
  return [];
}
