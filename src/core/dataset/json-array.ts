import { scanValue, skipWhitespace, type JsonError } from './json-scan';
import { LineIndex, TextRow } from './positions';
import type { RowChecker } from './rows';
import { notUtf8Message, pythonFloatMessage } from './rowText';
import type { Position } from './types';
import { parsePythonJson } from '../text/json';

/** Errors this close to the end of the text may be a token cut short ("tru", "1.", "\u00"), so more text is read before believing them. */
const TOKEN_MARGIN = 8;

/** The text not yet read, pulled piece by piece as the scanner needs it, with the file position of every offset kept absolute. */
class Window {
  text = '';
  /** First offset of `text` not yet consumed. */
  at = 0;
  ended = false;
  private started = false;
  /** `mark` is at file position `line`:`column`; positions are only asked for at or after it. */
  private mark = 0;
  private line = 1;
  private column = 1;
  /** Whether any piece so far held U+FFFD (what the decoder puts for invalid UTF-8): only then is each row searched for it. */
  replaced = false;

  constructor(private readonly pieces: AsyncIterator<string>) {}

  /** Appends the next piece, dropping consumed text; false at the end of the input. */
  async more(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.pieces.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    let piece = next.value;
    if (!this.started && piece.length) {
      this.started = true;
      if (piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
    }
    if (!this.replaced) this.replaced = piece.includes('\ufffd');
    this.position(this.at);
    this.text = this.text.slice(this.at) + piece;
    this.mark = 0;
    this.at = 0;
    return true;
  }

  position(offset: number): Position {
    // A plain loop, not indexOf: on a one-line file indexOf would search the whole window for each row.
    let last = -1;
    for (let i = this.mark; i < offset; i++) {
      if (this.text.charCodeAt(i) === 0x0a) {
        this.line++;
        last = i;
      }
    }
    this.column = last === -1 ? this.column + offset - this.mark : offset - last;
    this.mark = offset;
    return { line: this.line, column: this.column };
  }

  /** The next character after whitespace (consumed), or undefined at the end of the input. */
  async peek(): Promise<string | undefined> {
    for (;;) {
      this.at = skipWhitespace(this.text, this.at, this.text.length);
      if (this.at < this.text.length) return this.text[this.at];
      if (!(await this.more())) return undefined;
    }
  }

  /** End of the value at `at`, or where it goes wrong, once no later piece could change the answer. */
  async scan(): Promise<number | JsonError> {
    let need = 0;
    for (;;) {
      const available = this.text.length - this.at;
      if (available >= need || this.ended) {
        const end = scanValue(this.text, this.at, this.text.length);
        if (this.ended || !this.cutShort(end)) return end;
        // Rescan only once the text has doubled, so a huge row is scanned a bounded number of times.
        need = Math.max(2 * available, available + 1);
      }
      await this.more();
    }
  }

  private cutShort(end: number | JsonError): boolean {
    const length = this.text.length;
    if (typeof end === 'number') return end >= length; // a number may go on in the next piece
    return end.unterminated === true || end.offset >= length - TOKEN_MARGIN;
  }
}

const HEAD_CHARS = 200;

/** How pandas laid out a DataFrame written as one object, told from the start of the text. */
function pandasOrient(head: string): 'columns' | 'index' | 'split' | undefined {
  if (/^\{\s*"columns"\s*:\s*\[/.test(head)) return 'split';
  if (/^\{\s*"0"\s*:\s*\{/.test(head)) return 'index';
  if (/^\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\{\s*"0"\s*:/.test(head)) return 'columns';
  return undefined;
}

/** `{`, fields of plain values, then a key whose value opens an array of objects: rows wrapped in one object. */
const WRAPPED_ROWS =
  /^\{\s*(?:"(?:[^"\\]|\\.)*"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[-+\d.eE]+|true|false|null)\s*,\s*)*"((?:[^"\\]|\\.)*)"\s*:\s*\[\s*\{/;

/** The key of an object whose value is the array of rows (`{"data": [{…}, …]}`, what `load_dataset("json", field=…)` reads), told from the start of the text. */
function wrappingKey(head: string): string | undefined {
  return WRAPPED_ROWS.exec(head)?.[1];
}

/** An element the scanner passed: JSON, or as Python's json wrote it with NaN or ±Infinity (read as null, with a warning). */
function elementValue(text: string, checker: RowChecker, place: TextRow): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // The scanner passed the element, so only Python's floats can have stopped JSON.parse.
    const python = parsePythonJson(text)!;
    checker.report('nan-value', pythonFloatMessage(python.token, 'row'), place.spanAt(python.offset, python.token.length), place.row);
    return python.value;
  }
}

/**
 * Reads a JSON array of rows from text pieces in any split, holding only the row being read; gives each element its own
 * position and stops at the first syntax error, which it reports exactly.
 */
export async function readJsonArray(
  pieces: AsyncIterable<string>,
  checker: RowChecker,
  tick?: (rows: number) => Promise<void> | void,
): Promise<void> {
  const w = new Window(pieces[Symbol.asyncIterator]());
  const syntax = (offset: number, message: string) => {
    const p = w.position(offset);
    checker.report(
      'json-syntax',
      `The file is not a JSON array: ${message}.`,
      { start: p, end: { line: p.line, column: p.column + 1 } },
      0,
    );
  };
  let c = await w.peek();
  if (c === undefined) return;
  if (c !== '[') {
    // The same head whatever the split: the layouts are told from its first 200 characters.
    while (w.text.length - w.at < HEAD_CHARS && (await w.more()));
    const head = w.text.slice(w.at, w.at + HEAD_CHARS);
    const orient = pandasOrient(head);
    const key = orient ? undefined : wrappingKey(head);
    syntax(
      w.at,
      orient
        ? `it is one object, as pandas' \`df.to_json()\` writes with orient="${orient}"${orient === 'columns' ? ' (its default)' : ''}; write \`df.to_json(path, orient="records")\` for an array of rows, or add \`lines=True\` and name it .jsonl`
        : key !== undefined
          ? `it is one object whose \`${key}\` holds the rows (what \`load_dataset("json", field="${key}")\` reads); the service reads the array itself: write \`json.dump(obj["${key}"], f)\`, or the rows one per line as .jsonl`
          : `expected '[' at the start, found '${c}' (a JSON dataset is an array of objects; use .jsonl for one object per line)`,
    );
    return;
  }
  w.at++;
  let row = 0;
  if ((await w.peek()) === ']') w.at++;
  else {
    for (;;) {
      const end = await w.scan();
      if (typeof end !== 'number') {
        checker.countBrokenRow();
        syntax(end.offset, end.message);
        return;
      }
      row++;
      const text = w.text.slice(w.at, end);
      const start = w.position(w.at);
      const place = new TextRow(row, start.line, text, 0, text.length, new LineIndex(text, start));
      const bad = w.replaced ? text.indexOf('\ufffd') : -1;
      if (bad === -1) checker.check(elementValue(text, checker, place), place);
      else {
        checker.countBrokenRow();
        checker.report('json-syntax', notUtf8Message('row'), place.spanAt(bad, 1), row);
      }
      w.at = end;
      if (tick && row % 2000 === 0) await tick(row);
      c = await w.peek();
      if (c === ',') {
        w.at++;
        await w.peek();
        continue;
      }
      if (c === ']') {
        w.at++;
        break;
      }
      syntax(w.at, c === undefined ? "a ']' is missing at the end" : `expected ',' or ']' after row ${row}, found '${c}'`);
      return;
    }
  }
  c = await w.peek();
  if (c !== undefined) syntax(w.at, `unexpected '${c}' after the closing ']'`);
}
