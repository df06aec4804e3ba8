/**
 * A text file's row count guessed from its size and its first lines, so the first-seen tables are sized once instead of
 * doubling and rehashing from 1,024 slots (about a tenth of a JSON Lines check's CPU). A wrong guess costs only time
 * (too low: the tables grow as before) or memory within the tables' own bound (too high).
 */
export class RowEstimate {
  private bytes = 0;
  private done = false;
  rows = 0;

  constructor(private readonly byteSize: number) {}

  /** Counts a decoded piece; true once, when the first whole lines are in and `rows` holds the guess. */
  add(piece: string, lines: number): boolean {
    if (this.done) return false;
    this.bytes += Buffer.byteLength(piece);
    if (lines === 0) return false;
    this.done = true;
    this.rows = Math.ceil((this.byteSize * lines) / this.bytes);
    return true;
  }
}
