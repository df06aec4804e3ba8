// The mutation engine: pure and seeded, so a case is rebuilt from (seed, target, index) alone.
import { Random } from '../../src/emulator/random';

/** What one step did to the bytes, for the report of a failing case. */
export type MutationKind =
  'bit-flip' | 'byte-set' | 'insert' | 'delete' | 'splice' | 'truncate' | 'repeat' | 'control' | 'invalid-utf8' | 'bom' | 'newline';

/** Bytes that exercise edge cases: control characters, quotes and delimiters, UTF-8 that is cut short or overlong, surrogates, U+FFFF. */
const CONTROL = [0x00, 0x01, 0x07, 0x08, 0x09, 0x0b, 0x0c, 0x0d, 0x1b, 0x7f, 0x22, 0x2c, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x3a];
const INVALID_UTF8 = [[0xff], [0xc3], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xef, 0xbf, 0xbf]];
const BOMS = [
  [0xef, 0xbb, 0xbf],
  [0xff, 0xfe],
  [0xfe, 0xff],
  [0xff, 0xfe, 0, 0],
  [0, 0, 0xfe, 0xff],
];
const NEWLINES = [[0x0a], [0x0d, 0x0a], [0x0d], [0x0a, 0x0a], [0xe2, 0x80, 0xa8]];

/** Largest input a repeat grows to by default: big enough to cross the readers' 64 KiB chunk edges many times, small enough for thousands of cases. */
export const MAX_CASE_BYTES = 1024 * 1024;

function concat(...parts: ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function insertAt(bytes: Uint8Array, at: number, piece: ArrayLike<number>): Uint8Array {
  return concat(bytes.subarray(0, at), piece, bytes.subarray(at));
}

/** One mutation of `bytes`; `others` are the target's valid seeds, for splices. */
function step(kind: MutationKind, bytes: Uint8Array, others: readonly Uint8Array[], random: Random, maxBytes: number): Uint8Array {
  const at = random.int(bytes.length + 1);
  switch (kind) {
    case 'bit-flip': {
      if (!bytes.length) return bytes;
      const out = bytes.slice();
      for (let n = 1 + random.int(4); n > 0; n--) out[random.int(out.length)] ^= 1 << random.int(8);
      return out;
    }
    case 'byte-set': {
      if (!bytes.length) return bytes;
      const out = bytes.slice();
      const interesting = [0x00, 0xff, 0x7f, 0x80, 0x01, 0x30, 0x39];
      out[random.int(out.length)] = random.chance(0.5) ? random.pick(interesting) : random.int(256);
      return out;
    }
    case 'insert':
      return insertAt(
        bytes,
        at,
        Array.from({ length: 1 + random.int(16) }, () => random.int(256)),
      );
    case 'delete':
      return concat(bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + 1 + random.int(64))));
    case 'splice': {
      const other = random.pick(others);
      const from = random.int(other.length + 1);
      const piece = other.subarray(from, from + random.int(other.length - from + 1));
      return random.chance(0.5) ? concat(bytes.subarray(0, at), piece) : insertAt(bytes, at, piece);
    }
    case 'truncate':
      return bytes.subarray(0, random.int(bytes.length + 1));
    case 'repeat': {
      const from = random.int(bytes.length + 1);
      const piece = bytes.subarray(from, from + 1 + random.int(256));
      if (!piece.length) return bytes;
      const times = Math.min(Math.floor((maxBytes - bytes.length) / piece.length), 1 + random.int(random.chance(0.2) ? 50_000 : 200));
      if (times <= 0) return bytes;
      const run = new Uint8Array(piece.length * times);
      for (let i = 0; i < times; i++) run.set(piece, i * piece.length);
      return insertAt(bytes, from + piece.length, run);
    }
    case 'control':
      return insertAt(bytes, at, [random.pick(CONTROL)]);
    case 'invalid-utf8':
      return insertAt(bytes, at, random.pick(INVALID_UTF8));
    case 'bom':
      return random.chance(0.7) ? insertAt(bytes, 0, random.pick(BOMS)) : insertAt(bytes, at, random.pick(BOMS));
    case 'newline':
      return insertAt(bytes, at, random.pick(NEWLINES));
  }
}

const KINDS: MutationKind[] = [
  'bit-flip',
  'byte-set',
  'insert',
  'delete',
  'splice',
  'truncate',
  'repeat',
  'control',
  'invalid-utf8',
  'bom',
  'newline',
];

/** A fuzz case: one of the valid seeds with one to four mutations stacked on it. */
export function mutate(
  seeds: readonly Uint8Array[],
  random: Random,
  maxBytes = MAX_CASE_BYTES,
): { bytes: Uint8Array; steps: MutationKind[] } {
  let bytes = random.pick(seeds);
  const steps: MutationKind[] = [];
  for (let n = 1 + random.int(4); n > 0; n--) {
    const kind = random.pick(KINDS);
    steps.push(kind);
    bytes = step(kind, bytes, seeds, random, maxBytes);
  }
  return { bytes, steps };
}

/** Sorted cut points inside `length` (0 to 8 of them, some next to each other), for splitting the same input into chunks. */
export function cutPoints(length: number, random: Random): number[] {
  const cuts = new Set<number>();
  for (let n = random.int(9); n > 0 && length > 1; n--) {
    const at = 1 + random.int(length - 1);
    cuts.add(at);
    if (random.chance(0.2) && at + 1 < length) cuts.add(at + 1);
  }
  return [...cuts].sort((a, b) => a - b);
}

/** `items` cut at `cuts`: the pieces a stream would deliver. */
export function splitAt<T extends { slice(start: number, end?: number): T; length: number }>(items: T, cuts: readonly number[]): T[] {
  const out: T[] = [];
  let start = 0;
  for (const cut of [...cuts, items.length]) {
    out.push(items.slice(start, cut));
    start = cut;
  }
  return out;
}

/** The Random of one case, from the run's seed, the target and the case index. */
export function caseRandom(seed: number, target: string, index: number): Random {
  return new Random(`${seed}:${target}:${index}`);
}
