import { LineStarts } from '../text/lines';
import { propertyValueRange, rawIndexInString } from './json-scan';
import type { Position, Span } from './types';

/** Offsets as 1-based lines and columns of a file; `base` is where the text starts in its file. */
export class LineIndex {
  private readonly lines: LineStarts;

  constructor(
    text: string,
    private readonly base: Position = { line: 1, column: 1 },
  ) {
    this.lines = new LineStarts(text);
  }

  position(offset: number): Position {
    const { line, start } = this.lines.locate(offset);
    return { line: line + this.base.line, column: line ? offset - start + 1 : offset + this.base.column };
  }
}

/** Where one row sits, and how to find one of its values, so findings point at the exact characters. */
export interface RowPlace {
  /** 1-based data row. */
  row: number;
  /** The line the row starts on; cheaper than `span` on the hot path. */
  line: number;
  span: Span;
  /** The value of a top-level property, or `length` characters at `decodedIndex` inside that string value. */
  locate?(key: string, decodedIndex?: number, length?: number): Span | undefined;
}

/** A row that is a JSON text between `start` and `end` of `text`; positions are computed only when a finding needs them, from `lines` (a whole document) or else as columns of `line` (one JSON Lines line). */
export class TextRow implements RowPlace {
  constructor(
    readonly row: number,
    readonly line: number,
    private readonly text: string,
    private readonly start: number,
    private readonly end: number,
    private readonly lines?: LineIndex,
  ) {}

  private toPosition(offset: number): Position {
    return this.lines ? this.lines.position(offset) : { line: this.line, column: offset - this.start + 1 };
  }

  get span(): Span {
    return { start: this.toPosition(this.start), end: this.toPosition(this.end) };
  }

  /** `length` characters at `offset` into the row's text. */
  spanAt(offset: number, length: number): Span {
    return { start: this.toPosition(this.start + offset), end: this.toPosition(this.start + offset + length) };
  }

  locate(key: string, decodedIndex?: number, length = 1): Span | undefined {
    const range = propertyValueRange(this.text, this.start, key, this.end);
    if (!range) return undefined;
    if (decodedIndex === undefined || this.text.charCodeAt(range[0]) !== 0x22)
      return { start: this.toPosition(range[0]), end: this.toPosition(range[1]) };
    const from = Math.min(rawIndexInString(this.text, range[0], decodedIndex), range[1] - 1);
    const to = Math.min(rawIndexInString(this.text, range[0], decodedIndex + length), range[1] - 1);
    return { start: this.toPosition(from), end: this.toPosition(Math.max(to, from + 1)) };
  }
}

/** A whole line, for rows that have no character positions (CSV, Parquet) and for file-level findings. */
export function lineSpan(line: number, length = 0): Span {
  return { start: { line, column: 1 }, end: { line, column: length + 1 } };
}
