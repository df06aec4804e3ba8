import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Checks values against the service models the installed AWS SDK ships: each client's schema objects
 * (`dist-es/schemas/schemas_0.js`, reachable as `command.schema`) give structures, required member counts,
 * lists, maps and timestamp formats; enum values are not in the schemas, so they come from the client's
 * `dist-types/models` declarations (a member typed with an enum of `enums.d.ts`).
 */

type Traits = Record<string, unknown>;
/** Compact schema: a number (simple), or [kind, namespace, name, traits, …] (0 simple, 1 list, 2 map, 3/-3/4 structure). */
type Schema = number | string | unknown[];

const TRAIT_BITS = ['httpLabel', 'idempotent', 'idempotencyToken', 'sensitive', 'httpPayload', 'httpResponseCode', 'httpQueryParams'];
const HTTP_BINDINGS = ['httpHeader', 'httpPrefixHeaders', 'httpQuery', 'httpQueryParams', 'httpLabel', 'httpResponseCode', 'httpPayload'];

function traitsOf(t: unknown): Traits {
  if (t && typeof t === 'object') return t as Traits;
  const out: Traits = {};
  TRAIT_BITS.forEach((name, i) => {
    if ((((t as number) | 0) >> i) & 1) out[name] = 1;
  });
  return out;
}

const deref = (ref: unknown): unknown => (typeof ref === 'function' ? (ref as () => unknown)() : ref);
const isMember = (ref: unknown): ref is [unknown, unknown] => Array.isArray(ref) && ref.length === 2;

/** The schema behind a reference, with the member traits and the shape name on the way. */
function resolve(ref: unknown): { schema: Schema; traits: Traits; name?: string } {
  let traits: Traits = {};
  let current = deref(ref);
  let name: string | undefined;
  for (;;) {
    if (isMember(current)) {
      traits = { ...traitsOf(current[1]), ...traits };
      current = deref(current[0]);
    } else if (Array.isArray(current) && current[0] === 0) {
      name ??= current[2] as string;
      traits = { ...traitsOf(current[3]), ...traits };
      current = deref(current[4]);
    } else break;
  }
  if (Array.isArray(current)) name ??= current[2] as string;
  return { schema: current as Schema, traits, name };
}

export type Mode = 'sdk' | 'json' | 'rest-json';

/** Enum values per `Structure.member`, read from a client's type declarations. */
export type EnumTable = Map<string, readonly string[]>;

export function enumTable(clientPackage: string): EnumTable {
  const models = path.join(path.dirname(require.resolve(`${clientPackage}/package.json`)), 'dist-types/models');
  const enums = new Map<string, string[]>();
  let current: string[] | undefined;
  // A client without enums (STS) ships no enums.d.ts.
  const declared = existsSync(path.join(models, 'enums.d.ts')) ? readFileSync(path.join(models, 'enums.d.ts'), 'utf8') : '';
  for (const line of declared.split('\n')) {
    const start = /^export declare const (\w+): \{/.exec(line);
    if (start) enums.set(start[1], (current = []));
    else if (/^\};/.test(line)) current = undefined;
    else if (current) {
      const value = /readonly \w+: "(.*)";/.exec(line);
      if (value) current.push(JSON.parse(`"${value[1]}"`) as string);
    }
  }
  const table: EnumTable = new Map();
  for (const file of readdirSync(models).filter((f) => /^models_\d+\.d\.ts$/.test(f))) {
    let shape: string | undefined;
    for (const line of readFileSync(path.join(models, file), 'utf8').split('\n')) {
      const open = /^export interface (\w+) \{/.exec(line);
      // Types that clash with globals are declared with a leading underscore (`_Object`); the schemas name them plainly.
      if (open) shape = open[1].replace(/^_/, '');
      else if (/^\}/.test(line)) shape = undefined;
      const member = shape && /^ {4}(\w+)\??: (.+);$/.exec(line);
      if (!member) continue;
      const named = member[2].match(/\w+/g)?.find((id) => enums.has(id));
      if (named) table.set(`${shape}.${member[1]}`, enums.get(named) as string[]);
    }
  }
  return table;
}

const TIMESTAMP_FORMATS: Record<number, string> = { 4: 'default', 5: 'date-time', 6: 'http-date', 7: 'epoch-seconds' };
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * The problems of `value` against a schema, one sentence each with its path. `sdk`: the objects the SDK takes
 * or returns (timestamps as Date); `json`/`rest-json`: a JSON body on the wire (timestamps in the model's format,
 * JSON names, members bound to HTTP headers, query, labels or status left out).
 */
export function check(ref: unknown, value: unknown, mode: Mode, enums: EnumTable, where = '$'): string[] {
  const problems: string[] = [];
  walk(ref, value, where, undefined);
  return problems;

  function walk(r: unknown, v: unknown, at: string, enumKey: string | undefined): void {
    const { schema, traits } = resolve(r);
    if (v === undefined || v === null) return;
    if (traits.streaming || schema === 42) return;
    const allowed = enumKey ? enums.get(enumKey) : undefined;
    if (typeof schema === 'number') return simple(schema, v, at, allowed);
    if (typeof schema === 'string') return; // "unit"
    const kind = schema[0];
    if (kind === 1) {
      if (!Array.isArray(v)) return void problems.push(`${at}: a list expected, got ${typeof v}`);
      v.forEach((item, i) => walk(schema[4], item, `${at}[${i}]`, enumKey));
    } else if (kind === 2) {
      if (typeof v !== 'object' || Array.isArray(v))
        return void problems.push(`${at}: a map expected, got ${Array.isArray(v) ? 'a list' : typeof v}`);
      for (const [k, item] of Object.entries(v as object)) walk(schema[5], item, `${at}.${k}`, enumKey);
    } else if (kind === 3 || kind === -3 || kind === 4) {
      structure(schema, v, at);
    }
  }

  function simple(schema: number, v: unknown, at: string, allowed: readonly string[] | undefined): void {
    if (schema >= 64 && schema < 128) {
      if (!Array.isArray(v)) return void problems.push(`${at}: a list expected, got ${typeof v}`);
      return v.forEach((item, i) => simple(schema & 63, item, `${at}[${i}]`, allowed));
    }
    if (schema >= 128) {
      if (typeof v !== 'object' || Array.isArray(v)) return void problems.push(`${at}: a map expected`);
      return Object.entries(v as object).forEach(([k, item]) => simple(schema & 63, item, `${at}.${k}`, allowed));
    }
    if (schema === 0) {
      if (typeof v !== 'string') return void problems.push(`${at}: a string expected, got ${JSON.stringify(v)}`);
      if (allowed && !allowed.includes(v)) problems.push(`${at}: '${v}' is not one of ${allowed.join(', ')}`);
    } else if (schema === 1 || schema === 17 || schema === 19) {
      if (typeof v !== 'number' && typeof v !== 'bigint' && !(mode === 'sdk' && typeof v === 'object'))
        problems.push(`${at}: a number expected, got ${JSON.stringify(v)}`);
    } else if (schema === 2) {
      if (typeof v !== 'boolean') problems.push(`${at}: a boolean expected, got ${JSON.stringify(v)}`);
    } else if (schema >= 4 && schema <= 7) {
      timestamp(schema, v, at);
    } else if (schema === 21 && mode !== 'sdk' && typeof v !== 'string') {
      problems.push(`${at}: a base64 string expected`);
    }
  }

  function timestamp(schema: number, v: unknown, at: string): void {
    if (mode === 'sdk') {
      const ok = v instanceof Date ? !Number.isNaN(v.getTime()) : typeof v === 'number' || typeof v === 'string';
      if (!ok) problems.push(`${at}: a timestamp expected, got ${JSON.stringify(v)}`);
      return;
    }
    // JSON protocols default to epoch seconds.
    const format = schema === 4 ? 'epoch-seconds' : TIMESTAMP_FORMATS[schema];
    const ok =
      format === 'epoch-seconds'
        ? typeof v === 'number' && Number.isFinite(v) && v < 1e11
        : format === 'date-time'
          ? typeof v === 'string' && ISO_8601.test(v)
          : typeof v === 'string' && HTTP_DATE.test(v);
    if (!ok) problems.push(`${at}: a ${format} timestamp expected, got ${JSON.stringify(v)}`);
  }

  function structure(schema: unknown[], v: unknown, at: string): void {
    if (typeof v !== 'object' || Array.isArray(v) || v instanceof Date)
      return void problems.push(`${at}: a structure expected, got ${JSON.stringify(v)}`);
    const name = schema[2] as string;
    const names = schema[4] as string[];
    const members = schema[5] as unknown[];
    const required = (schema[6] as number | undefined) ?? 0;
    const record = v as Record<string, unknown>;
    const seen = new Set<string>();
    names.forEach((member, i) => {
      const { traits } = resolve(members[i]);
      if (mode !== 'sdk' && HTTP_BINDINGS.some((t) => t in traits)) return;
      const key = mode === 'rest-json' && typeof traits.jsonName === 'string' ? traits.jsonName : member;
      seen.add(key);
      if (i < required && record[key] === undefined) problems.push(`${at}: missing required member ${key} of ${name}`);
      walk(members[i], record[key], `${at}.${key}`, `${name}.${member}`);
    });
    if (schema[0] === 4 && Object.keys(record).filter((k) => record[k] !== undefined && k !== '$unknown').length > 1)
      problems.push(`${at}: a union sets exactly one member`);
    if (mode !== 'sdk') for (const key of Object.keys(record)) if (!seen.has(key)) problems.push(`${at}: member ${key} is not in ${name}`);
  }
}

/** The input and output schemas of an operation schema `[9, namespace, name, traits, input, output]`. */
export function operationShapes(operation: unknown[]): { name: string; input: unknown; output: unknown } {
  return { name: operation[2] as string, input: operation[4], output: operation[5] };
}

/** Whether the output is streamed (S3 GetObject, InvokeAgentRuntime): its body is not a document to check. */
export function streamsOutput(operation: unknown[]): boolean {
  const { schema } = resolve(operation[5]);
  if (!Array.isArray(schema) || !Array.isArray(schema[5])) return false;
  return (schema[5] as unknown[]).some((m) => {
    const r = resolve(m);
    return (
      r.schema === 42 || r.traits.streaming !== undefined || (r.traits.httpPayload !== undefined && (r.schema === 21 || r.schema === 42))
    );
  });
}

/** One element of an XML answer: its name, child elements in order, and its own text. */
export interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/** Parses the XML the emulator writes (elements, text, entities; attributes such as xmlns are ignored). */
export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: '', children: [], text: '' };
  const open: XmlElement[] = [root];
  for (const [, close, name, selfClosing, text] of xml.replace(/<\?[\s\S]*?\?>/g, '').matchAll(/<(\/?)([\w:.-]+)[^>]*?(\/?)>|([^<]+)/g)) {
    const current = open[open.length - 1];
    if (text !== undefined) current.text += text.replace(/&(\w+);/g, (_, e: string) => ENTITIES[e] ?? `&${e};`);
    else if (close) open.pop();
    else {
      const element = { name, children: [], text: '' };
      current.children.push(element);
      if (!selfClosing) open.push(element);
    }
  }
  return root.children[0];
}

/**
 * The problems of an XML answer against an output shape: `query` (IAM, STS: `<OpResponse><OpResult>`) or
 * `rest-xml` (S3: the root element named by the shape). Element names follow `xmlName`; lists are wrapped
 * (items `member` or the item's `xmlName`) unless `xmlFlattened`; maps are `entry` elements of `key` and `value`;
 * timestamps default to ISO 8601.
 */
export function checkXml(
  ref: unknown,
  root: XmlElement,
  protocol: 'query' | 'rest-xml',
  operation: string,
  enums: EnumTable,
  where = '$',
): string[] {
  const problems: string[] = [];
  const { schema } = resolve(ref);
  if (!Array.isArray(schema)) return problems;
  if (protocol === 'query') {
    if (root.name !== `${operation}Response`) problems.push(`${where}: root element ${root.name}, expected ${operation}Response`);
    const result = root.children.find((c) => c.name === `${operation}Result`);
    const other = root.children.filter((c) => c.name !== `${operation}Result` && c.name !== 'ResponseMetadata');
    other.forEach((c) => problems.push(`${where}: element ${c.name} is not in ${operation}Response`));
    structure(schema, result ?? { name: `${operation}Result`, children: [], text: '' }, where);
  } else {
    const named = traitsOf(schema[3]).xmlName;
    const expected = typeof named === 'string' ? named : (schema[2] as string);
    if (root.name !== expected) problems.push(`${where}: root element ${root.name}, expected ${expected}`);
    structure(schema, root, where);
  }
  return problems;

  function structure(shape: unknown[], element: XmlElement, at: string): void {
    const names = shape[4] as string[];
    const members = shape[5] as unknown[];
    const required = (shape[6] as number | undefined) ?? 0;
    const known = new Set<string>();
    names.forEach((member, i) => {
      const r = resolve(members[i]);
      if (HTTP_BINDINGS.some((t) => t in r.traits)) return;
      const tag = typeof r.traits.xmlName === 'string' ? r.traits.xmlName : member;
      known.add(tag);
      const found = element.children.filter((c) => c.name === tag);
      if (i < required && found.length === 0) problems.push(`${at}: missing required member ${tag} of ${shape[2] as string}`);
      const isList = (Array.isArray(r.schema) && r.schema[0] === 1) || (typeof r.schema === 'number' && r.schema >= 64 && r.schema < 128);
      if (isList && r.traits.xmlFlattened)
        return found.forEach((item, n) => listItem(r.schema, item, `${at}.${tag}[${n}]`, `${shape[2] as string}.${member}`));
      if (found.length > 1) problems.push(`${at}: ${found.length} ${tag} elements, one expected`);
      if (found[0]) value(members[i], found[0], `${at}.${tag}`, `${shape[2] as string}.${member}`);
    });
    for (const c of element.children) if (!known.has(c.name)) problems.push(`${at}: element ${c.name} is not in ${shape[2] as string}`);
  }

  /** One item of a list: the list's item schema applied to the element. */
  function listItem(list: Schema, element: XmlElement, at: string, enumKey: string): void {
    const itemRef = typeof list === 'number' ? list & 63 : (list as unknown[])[4];
    value(itemRef, element, at, enumKey);
  }

  function value(r: unknown, element: XmlElement, at: string, enumKey: string): void {
    const { schema } = resolve(r);
    const isSimpleList = typeof schema === 'number' && schema >= 64 && schema < 128;
    if ((Array.isArray(schema) && schema[0] === 1) || isSimpleList) {
      const itemTraits = isSimpleList ? {} : resolve((schema as unknown[])[4]).traits;
      const itemTag = typeof itemTraits.xmlName === 'string' ? itemTraits.xmlName : 'member';
      return element.children.forEach((c, n) =>
        c.name === itemTag
          ? listItem(schema, c, `${at}[${n}]`, enumKey)
          : problems.push(`${at}: element ${c.name} in a list of ${itemTag}`),
      );
    }
    if (Array.isArray(schema) && (schema[0] === 3 || schema[0] === -3 || schema[0] === 4)) return structure(schema, element, at);
    const isSimpleMap = typeof schema === 'number' && schema >= 128;
    if ((Array.isArray(schema) && schema[0] === 2) || isSimpleMap) {
      // A map in XML: `<entry><key>…</key><value>…</value></entry>` per pair (SNS's topic attributes).
      const valueRef = isSimpleMap ? schema & 63 : (schema as unknown[])[5];
      return element.children.forEach((c, n) => {
        const [key, item] = ['key', 'value'].map((name) => c.children.find((k) => k.name === name));
        if (c.name !== 'entry' || !key || !item) problems.push(`${at}[${n}]: element ${c.name} in a map of entry with key and value`);
        else value(valueRef, item, `${at}.${key.text}`, enumKey);
      });
    }
    if (typeof schema !== 'number') return;
    if (element.children.length) return void problems.push(`${at}: a simple value expected, got elements`);
    const text = element.text;
    if (schema === 0) {
      const allowed = enums.get(enumKey);
      if (allowed && !allowed.includes(text)) problems.push(`${at}: '${text}' is not one of ${allowed.join(', ')}`);
    } else if (schema === 1 || schema === 17 || schema === 19) {
      if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) problems.push(`${at}: a number expected, got ${JSON.stringify(text)}`);
    } else if (schema === 2) {
      if (text !== 'true' && text !== 'false') problems.push(`${at}: a boolean expected, got ${JSON.stringify(text)}`);
    } else if (schema >= 4 && schema <= 7) {
      // XML protocols default to ISO 8601.
      const format = schema === 4 ? 'date-time' : TIMESTAMP_FORMATS[schema];
      const ok = format === 'date-time' ? ISO_8601.test(text) : format === 'http-date' ? HTTP_DATE.test(text) : /^\d+(\.\d+)?$/.test(text);
      if (!ok) problems.push(`${at}: a ${format} timestamp expected, got ${JSON.stringify(text)}`);
    }
  }
}
