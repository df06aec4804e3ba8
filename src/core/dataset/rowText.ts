import type { PackDatasetChecks } from '../environments/types';
import { editDistance } from '../text/editDistance';
import { isFields } from '../text/json';
import { shortenMiddle } from '../text/shorten';
/** Small readings of a row's values that the row checks share. */

/** A value's kind in the user's words: Parquet hands int64 as a bigint and a timestamp as a Date, which are "an integer" and "a timestamp" to them. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint' || Number.isInteger(value)) return 'an integer';
  if (value instanceof Date) return 'a timestamp';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x20) return false;
  return true;
}

export function startsLikeJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x20) return c === 0x7b || c === 0x5b;
  }
  return false;
}

const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);

export function containsLowerWord(t: string, w: string): boolean {
  if (!w) return false;
  for (let i = t.indexOf(w); i !== -1; i = t.indexOf(w, i + 1)) {
    if (!isWordChar(t[i - 1]) && !isWordChar(t[i + w.length])) return true;
  }
  return false;
}

export function normalizeAnswer(answer: string): string {
  return answer.trim().toLowerCase();
}

export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A prompt as an overlap key and in messages: itself when short, else its start, its length and a hash of the whole, so maps of millions stay small. */
export function promptKey(prompt: string): string {
  if (prompt.length <= 120) return prompt;
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < prompt.length; i++) {
    const c = prompt.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `${prompt.slice(0, 80)}… (${prompt.length} characters, #${(a >>> 0).toString(16)}${(b >>> 0).toString(16)})`;
}

/** Answers this long tell the solution when the prompt holds them; shorter ones (a number, "yes", a city) occur in prompts by chance. */
const TELLING_ANSWER_LENGTH = 20;

/** An answer in its own prompt gives the task away where the pack keeps answers secret (Wordle), or the answer is long enough to be telling; never a number. */
export function leaks(answer: string, pack: PackDatasetChecks | undefined): boolean {
  if (/^[-+]?[\d.,\s/%]+$/.test(answer)) return false;
  return !!pack?.answerIsTheTask || answer.length >= TELLING_ANSWER_LENGTH;
}

/** Bytes the decoder could not read as UTF-8 (it puts U+FFFD): the service reads UTF-8 only. */
export function notUtf8Message(where: 'line' | 'row', csv = false): string {
  // The usual sources: Excel's plain *CSV* and Python's open() on Windows both write Windows-1252.
  const how = csv ? 'Excel: *CSV UTF-8*, not *CSV*' : 'in Python, `open(path, "w", encoding="utf-8")`';
  return `The ${where} holds bytes that are not valid UTF-8 (shown as �): save the file as UTF-8 (${how}).`;
}

/** A `NaN` or `±Infinity` Python's json wrote for such a float: read, as Python reads it, but strict readers refuse it. */
export function pythonFloatMessage(token: string, where: 'line' | 'row' | 'prompt'): string {
  const reader =
    where === 'prompt'
      ? "an agent reading the prompt with Python's `json.loads` gets a float, one using JavaScript's `JSON.parse` fails"
      : "Python's readers (json, pandas, pyarrow) read it back, stricter ones refuse it";
  return `The ${where === 'prompt' ? 'prompt string' : where} holds \`${token}\`, which Python's \`json.dumps\` writes for that float${token === 'NaN' ? ' (a missing value in pandas)' : ''} but JSON has no word for: ${reader}. Write \`null\` instead (\`json.dumps(…, allow_nan=False)\` finds them).`;
}

// pandas' DataFrame.to_json() writes a whole column as one object keyed by row number unless told orient="records".
const PANDAS_RECORDS = 'write `df.to_json(path, orient="records", lines=True)` (one row per line)';

/** A whole pandas column written as one object keyed by row numbers ("0", "1", …): `to_json()` without orient="records". */
export function isPandasColumn(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  let n = 0;
  for (const key in value) if (key !== String(n++)) return false;
  return n > 0;
}

/** Rows where one value belongs: a list of objects that each have `prompt` (a file's rows written as one value). */
function isRowList(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => isFields(v) && 'prompt' in v);
}

/** Why a row that is not an object cannot be read, with pandas' records written as one array named as such. */
export function notObjectMessage(value: unknown): string {
  if (isRowList(value))
    return `The line holds ${value.length} rows as one JSON array, as pandas \`to_json(orient="records")\` writes without \`lines=True\`: ${PANDAS_RECORDS}.`;
  return `The row is ${kindOf(value)}, not an object: the service reads the \`prompt\` column of each row.`;
}

/**
 * Why a row without `prompt` is refused when one of its fields holds the rows (`{"version": …, "data": [rows]}` written
 * whole, as SQuAD's layout is); undefined for any other row.
 */
export function wrappedRowsMessage(row: Record<string, unknown>): string | undefined {
  for (const key in row) {
    const value = row[key];
    if (!isRowList(value)) continue;
    return (
      `The row holds ${value.length} rows under \`${key}\`, as \`json.dump({"${key}": rows}, f)\` writes them, and is read as one row. ` +
      `Write the rows themselves: one per line as JSON Lines (\`f.write(json.dumps(row) + "\\n")\` for each), or \`json.dump(obj["${key}"], f)\` as a JSON array.`
    );
  }
  return undefined;
}

/** Why the service passes another column: no `prompt` in `count` rows; a column of the file named almost so is named too. */
export function missingPromptMessage(column: string, count: number, columns: string[]): string {
  const shown = shortenMiddle(column, 80);
  // A task where a column name goes: the file has no header line (pandas `header=False`), so its first row became one.
  if (/^\s*[{[]/.test(column))
    return `The first line is a row, not a header: its first field (\`${shown}\`) is read as a column name, so that row is lost and the service passes the first column of the others. Write the header line: \`df.to_csv(path, index=False)\`, without \`header=False\`.`;
  const rows = count > 1 ? ` in ${count} rows` : '';
  return `No \`prompt\` column${rows}: the service will pass the first column, \`${shown}\`, instead.${promptLookalikeAdvice(columns)}`;
}

/** What to do when one column is named almost `prompt` ("Prompt", "prompts", "promt", " prompt"); empty when none or several are. */
function promptLookalikeAdvice(columns: string[]): string {
  // One edit away is within a character of its length: longer names (a row's keys can be anything) are not compared.
  const near = columns.filter(
    (c) => c !== 'prompt' && Math.abs(c.trim().length - 6) <= 1 && editDistance(c.trim().toLowerCase(), 'prompt') <= 1,
  );
  if (near.length !== 1) return '';
  const [name] = near;
  return ` \`${name}\` looks like it: the service matches the name exactly (a guess: Python's readers do), so name it \`prompt\` (in pandas \`df = df.rename(columns={${JSON.stringify(name)}: "prompt"})\`).`;
}

/** `[{"role": …, "content": …}, …]`: a conversation in the chat format (OpenAI's fine-tuning files, chat templates). */
function isChatMessages(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every((m) => isFields(m) && typeof m.role === 'string' && 'content' in m);
}

/** Why a prompt that is not text cannot be passed, in the user's words. */
export function notTextMessage(column: string, value: unknown): string {
  if (value === null || value === undefined)
    return `The \`${column}\` value is null (an empty cell): the agent would get no prompt. Fill it in or drop the row.`;
  if (isPandasColumn(value))
    return `The \`${column}\` value is the whole column keyed by row number, as pandas' \`df.to_json()\` writes by default: ${PANDAS_RECORDS}.`;
  if (isChatMessages(value))
    return `The \`${column}\` value is ${value.length} chat messages, as chat fine-tuning data is written; the service passes one string per row to your agent. Give each row a \`prompt\` column holding the task as text or a JSON string (\`json.dumps({"prompt": …, "answer": …, "id": …})\`), or serialize the messages for an agent that reads them: \`df["${column}"] = df["${column}"].map(json.dumps)\`.`;
  const kind = kindOf(value);
  // A task or a list of messages kept as structure: what it needs is one json.dumps per row.
  if (typeof value === 'object' && !(value instanceof Date))
    return `The \`${column}\` value is ${kind}; the service passes strings to the agent. Store it as a JSON string: in pandas \`df["${column}"] = df["${column}"].map(json.dumps)\`.`;
  return `The \`${column}\` value is ${kind}; the service passes strings to the agent. Store the column as text.`;
}
