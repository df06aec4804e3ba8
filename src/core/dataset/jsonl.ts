import { findJsonError } from './json-scan';
import { lineSpan, TextRow } from './positions';
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
  }

  private handle(text: string): void {
    const line = ++this.line;
    if (text.charCodeAt(text.length - 1) === 0x0d) text = text.slice(0, -1);
    if (isBlank(text)) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const python = parsePythonJson(text);
      if (!python) {
        this.checker.countBrokenRow();
        const error = findJsonError(text) ?? { offset: 0, message: 'Invalid JSON' };
        const span = { start: { line, column: error.offset + 1 }, end: { line, column: Math.min(error.offset + 2, text.length + 1) } };
        this.checker.report('json-syntax', `The line is not JSON: ${error.message}.`, span, line);
        return;
      }
      const span = new TextRow(line, line, text, 0, text.length).spanAt(python.offset, python.token.length);
      this.checker.report('nan-value', pythonFloatMessage(python.token, 'line'), span, line);
      value = python.value;
    }
    const bad = this.replaced ? text.indexOf('\ufffd') : -1;
    if (bad !== -1) {
      this.checker.countBrokenRow();
      const span = { start: { line, column: bad + 1 }, end: { line, column: bad + 2 } };
      this.checker.report('json-syntax', notUtf8Message('line'), span, line);
      return;
    }
    this.checker.check(value, new TextRow(line, line, text, 0, text.length));
  }
}
