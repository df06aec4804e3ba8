import { findJsonError } from './json-scan';
import { lineSpan, TextRow } from './positions';
import { isBlank, type RowChecker } from './rows';

/** Longest line kept in memory; a longer one is reported, not parsed, so a file without newlines cannot exhaust memory. */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/** Reads JSON Lines from text pieces in any split: CRLF, a BOM and a missing final newline never shift positions. */
export class JsonlReader {
  private pending: string[] = [];
  private pendingLength = 0;
  private overlong = false;
  private line = 0;
  private started = false;

  constructor(private readonly checker: RowChecker) {}

  push(piece: string): void {
    if (!this.started && piece.length) {
      this.started = true;
      if (piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
    }
    let start = 0;
    let nl = piece.indexOf('\n');
    if (nl === -1) {
      this.hold(piece);
      return;
    }
    if (this.pendingLength || this.overlong) {
      this.hold(piece.slice(0, nl));
      this.flush();
      start = nl + 1;
      nl = piece.indexOf('\n', start);
    }
    for (; nl !== -1; nl = piece.indexOf('\n', start)) {
      this.handle(piece.slice(start, nl));
      start = nl + 1;
    }
    if (start < piece.length) this.hold(piece.slice(start));
  }

  end(): void {
    if (this.pendingLength || this.overlong) this.flush();
  }

  private hold(text: string): void {
    if (this.overlong) return;
    if (this.pendingLength + text.length > MAX_LINE_CHARS) {
      this.overlong = true;
      this.pending = [];
      this.pendingLength = 0;
      return;
    }
    this.pending.push(text);
    this.pendingLength += text.length;
  }

  private flush(): void {
    if (this.overlong) {
      this.line++;
      this.checker.countBrokenRow();
      this.checker.report('json-syntax', `The line is longer than ${MAX_LINE_CHARS / 1024 / 1024} M characters and was not read: is this a JSON Lines file?`, lineSpan(this.line), this.line);
      this.overlong = false;
    } else {
      this.handle(this.pending.join(''));
    }
    this.pending = [];
    this.pendingLength = 0;
  }

  private handle(text: string): void {
    const line = ++this.line;
    if (text.charCodeAt(text.length - 1) === 0x0d) text = text.slice(0, -1);
    if (isBlank(text)) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.checker.countBrokenRow();
      const error = findJsonError(text) ?? { offset: 0, message: 'Invalid JSON' };
      const span = { start: { line, column: error.offset + 1 }, end: { line, column: Math.min(error.offset + 2, text.length + 1) } };
      this.checker.report('json-syntax', `The line is not JSON: ${error.message}.`, span, line);
      return;
    }
    const bad = text.indexOf('\ufffd');
    if (bad !== -1) {
      this.checker.countBrokenRow();
      const span = { start: { line, column: bad + 1 }, end: { line, column: bad + 2 } };
      this.checker.report('json-syntax', 'The line holds bytes that are not valid UTF-8 (shown as �): save the file as UTF-8.', span, line);
      return;
    }
    this.checker.check(value, new TextRow(line, line, text, 0, text.length));
  }
}
