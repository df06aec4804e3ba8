import { KeyTable } from './key-table';
import { lineSpan, type RowPlace } from './positions';
import type { FindingCode, OverlapHit, Span } from './types';

/** A key looked up among earlier rows' keys: which table, and for answers whether a repeat doubles a task. */
export type LookupKind = OverlapHit['kind'];

/**
 * What checking one row changes beyond the row: its findings, its keys to look up among earlier rows, a missing
 * `prompt` column. The checker applies them at once; a Parquet worker records them, and the parent applies the
 * record in row order, so only the look-ups (which need every earlier row) are left to one thread.
 */
export interface RowOutcomes {
  report(code: FindingCode, message: string, span: Span, row: number): void;
  lookup(kind: LookupKind, key: string, place: RowPlace, column: string): void;
  promptMissing(column: string, place: RowPlace): void;
}

/** A key's text, read only where a finding or an overlap needs it: most keys are only hashed. */
export interface LazyKeys {
  key(at: number): string;
}

/** What applies a record: the checker, with the keys already hashed by the worker. */
export interface HashedOutcomes {
  report(code: FindingCode, message: string, span: Span, row: number): void;
  lookupHashed(kind: LookupKind, a: number, b: number, keys: LazyKeys, at: number, place: RowPlace, column: string): void;
  promptMissing(column: string, place: RowPlace): void;
}

/**
 * Rows' outcomes as numbers, the form that crosses threads cheapest: `ops` holds [op, row, hash a, hash b, from, to,
 * column] each; a text is `latin1[from, to)` where all ASCII (a key), else `strings[from]` (`to` is -1), a column `strings[column]`.
 */
export interface RecordedOutcomes {
  ops: Int32Array;
  latin1: Uint8Array;
  strings: string[];
}

const KINDS: LookupKind[] = ['prompt', 'answer', 'shared-answer', 'id'];
const REPORT = KINDS.length;
const PROMPT_MISSING = REPORT + 1;
const OP = 7;

/** Records outcomes for `replayOutcomes`; its rows' places are Parquet rows, whose every span is their row's line. */
export class OutcomeRecorder implements RowOutcomes {
  // Grown by doubling and reused from batch to batch, so a row allocates nothing here but a key that is not ASCII.
  private ops = new Int32Array(OP * 1024);
  private length = 0;
  private latin1 = new Uint8Array(1 << 16);
  private bytes = 0;
  private strings: string[] = [];
  private lastColumn = '';
  private lastColumnAt = -1;
  private readonly hashes = new Int32Array(2);
  // Any table hashes the same way: this one only hashes.
  private readonly hasher = new KeyTable();

  report(code: FindingCode, message: string, _span: Span, row: number): void {
    this.push(REPORT, row, 0, 0, this.strings.push(code, message) - 2, -1, -1);
  }

  lookup(kind: LookupKind, key: string, place: RowPlace, column: string): void {
    this.hasher.hashInto(key, this.hashes, 0);
    const from = this.bytes;
    const ascii = this.writeAscii(key);
    const at = ascii ? from : this.strings.push(key) - 1;
    this.push(KINDS.indexOf(kind), place.row, this.hashes[0], this.hashes[1], at, ascii ? this.bytes : -1, this.columnAt(column));
  }

  promptMissing(column: string, place: RowPlace): void {
    this.push(PROMPT_MISSING, place.row, 0, 0, 0, 0, this.columnAt(column));
  }

  private columnAt(column: string): number {
    if (column !== this.lastColumn || this.lastColumnAt < 0) {
      this.lastColumn = column;
      this.lastColumnAt = this.strings.push(column) - 1;
    }
    return this.lastColumnAt;
  }

  /** Appends the key's characters as bytes when all are ASCII; false (nothing kept) otherwise. */
  private writeAscii(key: string): boolean {
    if (this.bytes + key.length > this.latin1.length) this.latin1 = grown(this.latin1, this.bytes + key.length);
    const out = this.latin1;
    let at = this.bytes;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c > 0x7f) return false;
      out[at++] = c;
    }
    this.bytes = at;
    return true;
  }

  private push(op: number, row: number, a: number, b: number, from: number, to: number, column: number): void {
    if (this.length + OP > this.ops.length) this.ops = grown(this.ops, this.length + OP);
    const ops = this.ops;
    const at = this.length;
    ops[at] = op;
    ops[at + 1] = row;
    ops[at + 2] = a;
    ops[at + 3] = b;
    ops[at + 4] = from;
    ops[at + 5] = to;
    ops[at + 6] = column;
    this.length = at + OP;
  }

  /** The outcomes recorded since the last call. */
  take(): RecordedOutcomes {
    const recorded = { ops: this.ops.slice(0, this.length), latin1: this.latin1.slice(0, this.bytes), strings: this.strings };
    this.length = 0;
    this.bytes = 0;
    this.strings = [];
    this.lastColumnAt = -1;
    return recorded;
  }
}

function grown<T extends Int32Array | Uint8Array>(array: T, least: number): T {
  let size = array.length * 2;
  while (size < least) size *= 2;
  const bigger = new (array.constructor as new (n: number) => T)(size);
  bigger.set(array);
  return bigger;
}

/** The keys of a record, decoded one by one when asked. */
class RecordedKeys implements LazyKeys {
  constructor(private readonly recorded: RecordedOutcomes) {}

  key(at: number): string {
    const { ops, latin1, strings } = this.recorded;
    const from = ops[at + 4];
    const to = ops[at + 5];
    return to < 0 ? strings[from] : Buffer.from(latin1.buffer, latin1.byteOffset + from, to - from).toString('latin1');
  }
}

/** A Parquet row's place: its number is its line, and its span is made only for a finding (one object a row, not four). */
export class ParquetRow implements RowPlace {
  constructor(readonly row: number) {}

  get line(): number {
    return this.row;
  }

  get span(): Span {
    return lineSpan(this.row);
  }
}

/** Applies recorded outcomes in their order. */
export function replayOutcomes(recorded: RecordedOutcomes, target: HashedOutcomes): void {
  const { ops, strings } = recorded;
  const keys = new RecordedKeys(recorded);
  for (let i = 0; i < ops.length; i += OP) {
    const op = ops[i];
    const row = ops[i + 1];
    if (op === REPORT) target.report(strings[ops[i + 4]] as FindingCode, strings[ops[i + 4] + 1], lineSpan(row), row);
    else if (op === PROMPT_MISSING) target.promptMissing(strings[ops[i + 6]], new ParquetRow(row));
    else target.lookupHashed(KINDS[op], ops[i + 2], ops[i + 3], keys, i, new ParquetRow(row), strings[ops[i + 6]]);
  }
}
