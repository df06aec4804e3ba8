import { findJsonError } from './json-scan';
import { LineIndex, lineSpan, TextRow } from './positions';
import { isBlank, notUtf8Message, pythonFloatMessage } from './rowText';
import type { RowChecker } from './rows';
import { parsePythonJson } from '../text/json';
import { LineSplitter, MAX_LINE_CHARS } from '../text/lines';

/** Reads JSON Lines from text pieces in any split: CRLF, a BOM and a missing final newline never shift positions. */
export class JsonlReader {
  private line = 0;
  private started = false;
  /** Whether any piece so far held U+FFFD (what the decoder puts for invalid UTF-8): only then is each line searched for it. */
  private replaced = false;
  /** A row being gathered over lines: where it started and its text so far. */
  private spread: { line: number; lines: string[]; chars: number } | undefined;
  /** Whether rows spread over lines were named yet: once a file. */
  private spreadNamed = false;
  private readonly lines = new LineSplitter(
    (text) => this.handle(text),
    () => {
      this.line++;
      this.checker.countBrokenRow();
      this.checker.report(
        'json-syntax',
        `The line is longer than ${MAX_LINE_CHARS / 1024 / 1024} M characters and was not read: is this a JSON Lines file?`,
        lineSpan(this.line),
        this.line,
      );
    },
  );

  constructor(private readonly checker: RowChecker) {}

  push(piece: string): void {
    if (!this.started && piece.length) {
      this.started = true;
      if (piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
    }
    if (!this.replaced) this.replaced = piece.includes('\ufffd');
    this.lines.push(piece);
  }

  end(): void {
    this.lines.end();
    if (this.spread) this.unspread();
  }

  private handle(text: string): void {
    const line = ++this.line;
    if (text.charCodeAt(text.length - 1) === 0x0d) text = text.slice(0, -1);
    this.next(text, line);
  }

  private next(text: string, line: number): void {
    if (this.spread) this.gather(text, line);
    else if (text.trim() === '{') this.spread = { line, lines: [text], chars: text.length };
    else if (!isBlank(text)) this.read(new TextRow(line, line, text, 0, text.length), text, 'line');
  }

  /** A row written over lines (`json.dumps(row, indent=2)`), gathered until a `}` at column 1 closes it. */
  private gather(text: string, line: number): void {
    const spread = this.spread!;
    const first = text.charCodeAt(0);
    // A `{` at column 1 starts a row: the one gathered never closed.
    if (first === 0x7b) {
      this.unspread();
      this.next(text, line);
      return;
    }
    spread.lines.push(text);
    spread.chars += text.length + 1;
    if (first === 0x7d) this.readSpread();
    else if (spread.chars > MAX_LINE_CHARS) this.unspread();
  }

  /** The gathered lines, read as one row: a pretty-printed row, named once a file as JSON Lines does not hold one. */
  private readSpread(): void {
    const { line, lines } = this.spread!;
    this.spread = undefined;
    const text = lines.join('\n');
    if (!this.spreadNamed) {
      this.spreadNamed = true;
      this.checker.report(
        'json-syntax',
        `This row is written over lines ${line}–${line + lines.length - 1}, as \`json.dumps(row, indent=2)\` writes it: JSON Lines holds each row on one line, as the service reads it. Write each row with \`json.dumps(row)\` (no \`indent\`), or run \`jq -c . FILE\`; rows written so were read as they are to check them.`,
        lineSpan(line, 1),
        line,
      );
    }
    this.read(new TextRow(line, line, text, 0, text.length, new LineIndex(text, { line, column: 1 })), text, 'row');
  }

  /** Lines gathered for a row that never closed: not a pretty-printed row after all, so each is read as a line of its own. */
  private unspread(): void {
    const { line, lines } = this.spread!;
    this.spread = undefined;
    this.read(new TextRow(line, line, lines[0], 0, lines[0].length), lines[0], 'line');
    lines.slice(1).forEach((text, i) => this.next(text, line + 1 + i));
  }

  /** One row's text: parsed (as Python's json reads it if need be), refused with its syntax error, or checked. */
  private read(place: TextRow, text: string, what: 'line' | 'row'): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const python = parsePythonJson(text);
      if (!python) {
        this.checker.countBrokenRow();
        const error = findJsonError(text) ?? { offset: 0, message: 'Invalid JSON' };
        const span = place.spanAt(error.offset, Math.min(1, text.length - error.offset));
        this.checker.report('json-syntax', `The ${what} is not JSON: ${error.message}.`, span, place.row);
        return;
      }
      const span = place.spanAt(python.offset, python.token.length);
      this.checker.report('nan-value', pythonFloatMessage(python.token, what), span, place.row);
      value = python.value;
    }
    const bad = this.replaced ? text.indexOf('\ufffd') : -1;
    if (bad !== -1) {
      this.checker.countBrokenRow();
      this.checker.report('json-syntax', notUtf8Message(what), place.spanAt(bad, 1), place.row);
      return;
    }
    this.checker.check(value, place);
  }
}
