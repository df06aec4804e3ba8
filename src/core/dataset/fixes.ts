import { scanValue, skipWhitespace } from './json-scan';
import { isPandasColumn, normalizeAnswer } from './rowText';
import { asFields } from '../text/json';

/** A replacement of the text between two offsets. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

export type FixKind = 'wrap' | 'serialize' | 'ids' | 'duplicates' | 'answers';

/** Where each row of a JSON Lines or JSON array text sits, as [start, end) offsets; rows that do not parse are skipped. */
export function rowRanges(text: string, format: 'jsonl' | 'json'): [number, number][] {
  const ranges: [number, number][] = [];
  if (format === 'jsonl') {
    for (let start = 0; start <= text.length;) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const lineEnd = text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
      if (text.slice(start, lineEnd).trim()) ranges.push([start, lineEnd]);
      start = end + 1;
    }
    return ranges;
  }
  let i = skipWhitespace(text, 0, text.length);
  if (text[i] !== '[') return ranges;
  i = skipWhitespace(text, i + 1, text.length);
  while (i < text.length && text[i] !== ']') {
    const end = scanValue(text, i, text.length);
    if (typeof end !== 'number') break;
    ranges.push([i, end]);
    i = skipWhitespace(text, end, text.length);
    if (text[i] === ',') i = skipWhitespace(text, i + 1, text.length);
  }
  return ranges;
}

/** JSON in the style of the sample text: Python's `", "` and `": "` separators when it uses them. */
function stringifyLike(sample: string, value: Record<string, unknown>): string {
  if (!/":\s/.test(sample)) return JSON.stringify(value);
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(', ')}}`;
}

/** A JSON object, or undefined for anything else (other JSON, or text that does not parse). */
export function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return asFields(value);
  } catch {
    return undefined;
  }
}

/** The row's task object from its prompt string, and a way to write it back. */
function editTask(rowText: string, change: (task: Record<string, unknown>) => boolean): string | undefined {
  const row = parseObject(rowText);
  if (!row || typeof row.prompt !== 'string') return undefined;
  const task = parseObject(row.prompt);
  if (!task || !change(task)) return undefined;
  return stringifyLike(rowText, { ...row, prompt: stringifyLike(row.prompt, task) });
}

/** A flat row (`answer`/`id` beside `prompt`) rewritten with the task serialized into the prompt column, as the service expects. */
export function wrapFlatRow(rowText: string): string | undefined {
  const row = parseObject(rowText);
  if (!row || typeof row.prompt !== 'string' || !('answer' in row || 'id' in row)) return undefined;
  const { prompt, answer, id, ...rest } = row;
  const task: Record<string, unknown> = { prompt };
  if (answer !== undefined) task.answer = answer;
  if (id !== undefined) task.id = id;
  return stringifyLike(rowText, { prompt: stringifyLike(rowText, task), ...rest });
}

/** A row whose prompt is an object or array (a task or messages kept as structure), with it serialized as the string the service passes on. */
export function serializePrompt(rowText: string): string | undefined {
  const row = parseObject(rowText);
  const prompt = row?.prompt;
  // A whole pandas column in one row is rewritten by its writer, not serialized into one prompt.
  if (!row || prompt === null || typeof prompt !== 'object' || isPandasColumn(prompt)) return undefined;
  const text = Array.isArray(prompt) ? JSON.stringify(prompt) : stringifyLike(rowText, prompt as Record<string, unknown>);
  return stringifyLike(rowText, { ...row, prompt: text });
}

function addRowId(rowText: string, id: string): string | undefined {
  return editTask(rowText, (task) => {
    if (task.id !== undefined && task.id !== null && String(task.id).trim()) return false;
    task.id = id;
    return true;
  });
}

function normalizeRowAnswer(rowText: string): string | undefined {
  return editTask(rowText, (task) => {
    if (typeof task.answer !== 'string' || normalizeAnswer(task.answer) === task.answer) return false;
    task.answer = normalizeAnswer(task.answer);
    return true;
  });
}

function taskId(rowText: string): string | undefined {
  const row = parseObject(rowText);
  const task = row && typeof row.prompt === 'string' ? parseObject(row.prompt) : undefined;
  const id = task?.id ?? row?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * The edits of one fix over the rows whose ranges are given (all rows, or the one row a diagnostic is on).
 * Ids are `<stem>_%04d` from the row's position, skipping ids the file already uses.
 */
export function fixEdits(
  text: string,
  format: 'jsonl' | 'json',
  kind: FixKind,
  options: { stem: string; only?: [number, number] },
): TextEdit[] {
  const all = rowRanges(text, format);
  const edits: TextEdit[] = [];
  if (kind === 'duplicates') {
    if (format !== 'jsonl') return edits;
    const seen = new Set<string>();
    for (const [start, end] of all) {
      const row = text.slice(start, end).trim();
      if (!seen.has(row)) seen.add(row);
      else {
        const next = text.indexOf('\n', end);
        edits.push({ start, end: next === -1 ? end : next + 1, text: '' });
      }
    }
    return edits;
  }
  const used =
    kind === 'ids' ? new Set(all.map(([s, e]) => taskId(text.slice(s, e))).filter((id): id is string => id !== undefined)) : undefined;
  all.forEach(([start, end], index) => {
    if (options.only && (start !== options.only[0] || end !== options.only[1])) return;
    const row = text.slice(start, end);
    let replaced: string | undefined;
    if (kind === 'wrap') replaced = wrapFlatRow(row);
    else if (kind === 'serialize') replaced = serializePrompt(row);
    else if (kind === 'answers') replaced = normalizeRowAnswer(row);
    else {
      const base = `${options.stem}_${String(index).padStart(4, '0')}`;
      let id = base;
      for (let n = 2; used!.has(id); n++) id = `${base}_${n}`;
      replaced = addRowId(row, id);
      if (replaced) used!.add(id);
    }
    if (replaced !== undefined && replaced !== row) edits.push({ start, end, text: replaced });
  });
  return edits;
}
