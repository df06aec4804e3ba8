// Rollout ids held for a whole read without a string each. A trace's id in its REST form (`tr-` and 32 lowercase hex
// digits, what restTraceIdOf makes of every raw artifact's id) is kept as four 32-bit words: on 100,000 trace folders
// the ids held as strings, in the duplicate check and the board's columns, cost the young generation's collector about
// 0.2 s of copying, a twelfth of reading the files (bench/traceFolders.bench.ts). Any other id is kept as it is.

const PREFIX = 'tr-';
const LENGTH = PREFIX.length + 32;

/** Writes the id's 32 hex digits as four words at `words[at…at+3]`; false (nothing to trust written) when it has another form. */
function readWords(id: string, words: Uint32Array, at: number): boolean {
  if (id.length !== LENGTH || !id.startsWith(PREFIX)) return false;
  for (let w = 0; w < 4; w++) {
    let word = 0;
    for (let i = PREFIX.length + 8 * w, end = i + 8; i < end; i++) {
      const c = id.charCodeAt(i);
      // Lowercase only: an id in capitals is another string, kept as written.
      const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
      if (digit < 0) return false;
      word = (word << 4) | digit;
    }
    words[at + w] = word;
  }
  return true;
}

/** An id's character codes, reused: each id is made as one flat string, not joined from pieces a later read must flatten. */
const CODES: number[] = [...PREFIX].map((c) => c.charCodeAt(0)).concat(new Array<number>(32).fill(0));

/**
 * A trace id as the REST API writes it: `tr-` and the UUID's 32 hex digits in lower case (dashes dropped); any other id
 * as it is. One pass over the characters: `replaceAll`, `toLowerCase` and a template string cost three times as much.
 */
export function restTraceIdOf(raw: string): string {
  let digits = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x2d) continue;
    const lower = c | 0x20;
    const isDigit = c >= 0x30 && c <= 0x39;
    if (digits === 32 || !(isDigit || (lower >= 0x61 && lower <= 0x66))) return raw;
    CODES[PREFIX.length + digits++] = isDigit ? c : lower;
  }
  return digits === 32 ? String.fromCharCode(...CODES) : raw;
}

function idOfWords(words: Uint32Array, at: number): string {
  for (let w = 0; w < 4; w++) {
    const word = words[at + w];
    for (let k = 0; k < 8; k++) {
      const digit = (word >>> (28 - 4 * k)) & 15;
      CODES[PREFIX.length + 8 * w + k] = digit < 10 ? 0x30 + digit : 0x57 + digit;
    }
  }
  return String.fromCharCode(...CODES);
}

/** Ids by row, appended in order. */
export class RolloutIds {
  private words: Uint32Array = new Uint32Array(0);
  /** Per row from the first id not of the REST trace form: that id, else undefined. None while every id has the form. */
  private others?: (string | undefined)[];
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(id: string): void {
    const row = this.count++;
    if (this.words.length < 4 * this.count) this.words = grown(this.words, 4 * Math.max(1024, 2 * row));
    const other = !readWords(id, this.words, 4 * row);
    if (other) this.others ??= new Array<string | undefined>(row).fill(undefined);
    this.others?.push(other ? id : undefined);
  }

  at(row: number): string {
    return this.others?.[row] ?? idOfWords(this.words, 4 * row);
  }
}

/** Ids seen, to take each trace once: a folder may hold a trace as its artifact and in a REST response. */
export class SeenIds {
  /** An open-addressed table of REST trace ids as words, slot `s` at `4 s`; `used` marks the slots taken. */
  private words = new Uint32Array(4 * 1024);
  private used = new Uint8Array(1024);
  private count = 0;
  private readonly others = new Set<string>();
  private readonly probe = new Uint32Array(4);

  /** Notes the id; false when it was seen before. */
  add(id: string): boolean {
    if (!readWords(id, this.probe, 0)) {
      const before = this.others.size;
      return this.others.add(id).size !== before;
    }
    if (2 * (this.count + 1) > this.used.length) this.rehash(2 * this.used.length);
    const slot = this.slotOf(this.probe, 0);
    if (this.used[slot]) return false;
    this.place(slot, this.probe, 0);
    this.count++;
    return true;
  }

  /** The slot holding these words, else the empty slot where they belong (linear probing; the table is at most half full). */
  private slotOf(words: Uint32Array, at: number): number {
    const mask = this.used.length - 1;
    const hash = Math.imul(
      words[at] ^ Math.imul(words[at + 1], 0x85ebca6b) ^ Math.imul(words[at + 2], 0xc2b2ae35) ^ words[at + 3],
      0x9e3779b1,
    );
    for (let slot = (hash ^ (hash >>> 15)) & mask; ; slot = (slot + 1) & mask) {
      if (!this.used[slot]) return slot;
      const s = 4 * slot;
      const w = this.words;
      if (w[s] === words[at] && w[s + 1] === words[at + 1] && w[s + 2] === words[at + 2] && w[s + 3] === words[at + 3]) return slot;
    }
  }

  private place(slot: number, words: Uint32Array, at: number): void {
    this.used[slot] = 1;
    for (let w = 0; w < 4; w++) this.words[4 * slot + w] = words[at + w];
  }

  private rehash(slots: number): void {
    const { words, used } = this;
    this.words = new Uint32Array(4 * slots);
    this.used = new Uint8Array(slots);
    for (let slot = 0; slot < used.length; slot++) if (used[slot]) this.place(this.slotOf(words, 4 * slot), words, 4 * slot);
  }
}

function grown(words: Uint32Array, length: number): Uint32Array {
  const next = new Uint32Array(length);
  next.set(words);
  return next;
}
