/** Longest line kept in memory; a longer one is skipped and reported, so a file without newlines cannot exhaust memory. */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/**
 * Cuts text pieces in any split into lines, in time linear in the input: a line's pieces are held until its
 * newline, then joined once. A line past `maxChars` is dropped as it grows and reported by its length instead.
 */
export class LineSplitter {
  private pending: string[] = [];
  private pendingLength = 0;
  private overlong = 0;

  constructor(
    private readonly onLine: (text: string) => void,
    private readonly onOverlong: (chars: number) => void,
    private readonly maxChars = MAX_LINE_CHARS,
  ) {}

  push(piece: string): void {
    let start = 0;
    for (let nl = piece.indexOf('\n'); nl !== -1; nl = piece.indexOf('\n', start)) {
      if (this.pendingLength || this.overlong) {
        this.hold(piece.slice(start, nl));
        this.flush();
      } else if (nl - start > this.maxChars) this.onOverlong(nl - start);
      else this.onLine(piece.slice(start, nl));
      start = nl + 1;
    }
    if (start < piece.length) this.hold(start ? piece.slice(start) : piece);
  }

  /** The last line, when the text does not end with a newline. */
  end(): void {
    if (this.pendingLength || this.overlong) this.flush();
  }

  private hold(text: string): void {
    if (this.overlong) {
      this.overlong += text.length;
      return;
    }
    if (this.pendingLength + text.length > this.maxChars) {
      this.overlong = this.pendingLength + text.length;
      this.pending = [];
      this.pendingLength = 0;
      return;
    }
    this.pending.push(text);
    this.pendingLength += text.length;
  }

  private flush(): void {
    if (this.overlong) this.onOverlong(this.overlong);
    else this.onLine(this.pending.length === 1 ? this.pending[0] : this.pending.join(''));
    this.pending = [];
    this.pendingLength = 0;
    this.overlong = 0;
  }
}

/** Where each line of a text starts, so an offset finds its line by binary search instead of a scan from the start. */
export class LineStarts {
  private readonly starts = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** The 0-based line holding `offset`, and the offset that line starts at. */
  locate(offset: number): { line: number; start: number } {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, start: this.starts[low] };
  }
}
