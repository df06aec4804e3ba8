// Keys up to this long (answers, ids) are hashed a character at a time: copying them out costs more than it saves.
const SHORT_KEY = 32;
const SCRATCH_BYTES = 64 * 1024;
// A longer key's characters, copied here natively and mixed four at a time; three spare bytes read as zeros past its end.
const scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES + 4);
const scratchWords = new Int32Array(scratch.buffer, scratch.byteOffset, scratch.length >> 2);
/** A character past U+00FF, which a latin1 copy would cut to its low byte: such keys take the loop over characters. */
const WIDE = /[\u0100-\uffff]/;

/**
 * Remembers string keys (ids, answers) with the line of their first occurrence, by a 64-bit hash in typed arrays:
 * no string is retained and no number is boxed, so memory stays small and the garbage collector idle on files of millions of rows.
 * Two different keys share a hash with odds of about n²/2⁶⁵.
 */
export class KeyTable {
  /** Set once `maxKeys` keys are held: later new keys are not remembered, which keeps memory bounded (about 50 MB). */
  full = false;
  /** Slot i is [hash high, hash low, 1-based line] at 3i, side by side so a probe touches one cache line; line 0 marks an empty slot. */
  // Small at first (a dataset of a few rows, a file validated as it is typed) and doubled as keys come: a 2.3 MB start
  // for the three tables of every validation cost the fuzz run 70% of its time in zeroing and collecting them.
  private slots = new Int32Array(3 << 10);
  private capacity = 1 << 10;
  private count = 0;
  // The two halves of the last hash, kept in fields so hashing allocates nothing.
  private a = 0;
  private b = 0;
  // Ids mostly come in order (task-1, task-2, … or zero-padded). While each key is past the one before (shorter first,
  // then by character) none can be a repeat, so its hash is appended here, [high, low, line] at 3i, in file order
  // instead of at a random slot; the slots take them all in when the order first breaks or the table is read.
  private ascending: Int32Array | undefined;
  private ascendingCount = 0;
  private last = '';
  private stillAscending: boolean;
  private reserved = 0;

  /** `ordered`: the keys often ascend (ids), so they are checked for it and skip the look-up while they do. */
  constructor(
    private readonly maxKeys = 2_000_000,
    ordered = false,
  ) {
    this.stillAscending = ordered;
    if (ordered) this.ascending = new Int32Array(3 << 10);
  }

  get size(): number {
    return this.count;
  }

  /** The line of the key's first occurrence, or undefined after recording `line` (≥ 1) as that first occurrence. */
  firstOrAdd(key: string, line: number): number | undefined {
    if (this.isPastLast(key)) {
      this.hash(key);
      this.addNewHashed(this.a, this.b, line);
      return undefined;
    }
    if (this.ascending) this.takeInAscending();
    this.hash(key);
    return this.firstOrAddLast(line);
  }

  /**
   * Writes the key's hash to `out` at `at` and `at + 1`. True when the key is past every earlier one of an ordered
   * table, so certainly new: it then goes to `addNewHashed`, else to `firstOrAddHashed`, in the keys' order.
   */
  hashInto(key: string, out: Int32Array, at: number): boolean {
    const past = this.isPastLast(key);
    this.hash(key);
    out[at] = this.a;
    out[at + 1] = this.b;
    return past;
  }

  /** Records a key `hashInto` found past every earlier one. */
  addNewHashed(a: number, b: number, line: number): void {
    const keys = this.ascending;
    if (!keys) {
      this.firstOrAddHashed(a, b, line);
      return;
    }
    if (this.count >= this.maxKeys) {
      this.full = true;
      return;
    }
    let at = 3 * this.ascendingCount++;
    if (at === keys.length) {
      this.ascending = new Int32Array(2 * keys.length);
      this.ascending.set(keys);
    }
    const to = this.ascending!;
    to[at++] = a;
    to[at++] = b;
    to[at] = Math.max(1, line);
    this.count++;
  }

  /** `firstOrAdd` for a key hashed by `hashInto`: many in a row overlap their waits on memory. */
  firstOrAddHashed(a: number, b: number, line: number): number | undefined {
    if (this.ascending) this.takeInAscending();
    this.a = a;
    this.b = b;
    return this.firstOrAddLast(line);
  }

  /** Reads the home slot of a hash from `hashInto`: run over a batch first, the cache misses overlap, and the look-ups after find the slots cached. */
  touch(b: number): number {
    return this.slots[3 * (b & (this.capacity - 1)) + 2];
  }

  /** Sized once for `keys` keys (a Parquet file tells its row count first), so they come without doubling and rehashing. */
  reserve(keys: number): void {
    // Keys still in order need no slots: the size is used when they are taken in, if ever.
    if (this.ascending) {
      this.reserved = Math.max(this.reserved, keys);
      return;
    }
    let capacity = this.capacity;
    while (Math.min(keys, this.maxKeys) * 4 > capacity * 3) capacity *= 2;
    if (capacity > this.capacity) this.resize(capacity);
  }

  get(key: string): number | undefined {
    if (this.ascending) this.takeInAscending();
    this.hash(key);
    const line = this.slots[this.slot() + 2];
    return line === 0 ? undefined : line;
  }

  /** Past the last key of a table whose keys have ascended so far; the first key that is not ends the ascent for good. */
  private isPastLast(key: string): boolean {
    if (!this.stillAscending) return false;
    const last = this.last;
    if (key.length > last.length || (key.length === last.length && key > last)) {
      this.last = key;
      return true;
    }
    this.last = '';
    return (this.stillAscending = false);
  }

  private firstOrAddLast(line: number): number | undefined {
    let i = this.slot();
    if (this.slots[i + 2] !== 0) return this.slots[i + 2];
    if (this.count >= this.maxKeys) {
      this.full = true;
      return undefined;
    }
    // Grown past 3/4 full, not 1/2: fewer and smaller tables, so fewer cache and TLB misses per key.
    if ((this.count + 1) * 4 > this.capacity * 3) {
      this.resize(this.capacity * 2);
      i = this.slot();
    }
    this.slots[i] = this.a;
    this.slots[i + 1] = this.b;
    this.slots[i + 2] = Math.max(1, line);
    this.count++;
    return undefined;
  }

  /** Moves the keys that came in order into the slots: all distinct, so each takes the first empty slot from its home. */
  private takeInAscending(): void {
    const keys = this.ascending!;
    const n = this.ascendingCount;
    this.ascending = undefined;
    this.stillAscending = false;
    this.reserve(Math.max(this.reserved, this.count));
    this.place(keys, 3 * n);
  }

  private hash(key: string): void {
    if (key.length > SHORT_KEY && key.length <= SCRATCH_BYTES && !WIDE.test(key)) return this.hashBytes(key);
    let a = 0x811c9dc5 | 0;
    let b = (0x9747b28c ^ key.length) | 0;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    this.finish(a, b);
  }

  /** A long key of one-byte characters (prompts): a quarter of the steps of the loop above (a support set validated ~10 % faster). */
  private hashBytes(key: string): void {
    const n = scratch.write(key, 0, 'latin1');
    scratch[n] = scratch[n + 1] = scratch[n + 2] = 0;
    let a = 0x811c9dc5 | 0;
    let b = (0x1b873593 ^ n) | 0;
    for (let i = 0, end = (n + 3) >> 2; i < end; i++) {
      const c = scratchWords[i];
      a = Math.imul(a ^ c, 0x01000193);
      a ^= a >>> 13;
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    this.finish(a, b);
  }

  private finish(a: number, b: number): void {
    // murmur3's finalizer mixes every character into the low bits that pick the slot, so probes stay short at a 3/4 load.
    b = Math.imul(b ^ (b >>> 16), 0x85ebca6b);
    b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
    this.a = a;
    this.b = b ^ (b >>> 16);
  }

  /** The offset of the slot holding the last hash, or of the empty slot where it would go. */
  private slot(): number {
    const mask = this.capacity - 1;
    const s = this.slots;
    let n = this.b & mask;
    while (s[3 * n + 2] !== 0 && (s[3 * n] !== this.a || s[3 * n + 1] !== this.b)) n = (n + 1) & mask;
    return 3 * n;
  }

  private resize(capacity: number): void {
    const old = this.slots;
    this.capacity = capacity;
    this.slots = new Int32Array(3 * this.capacity);
    this.place(old, old.length);
  }

  /** Puts the keys of `from` (triples up to `end`, line 0 skipped) into the slots; every one is new to them. */
  private place(from: Int32Array, end: number): void {
    const mask = this.capacity - 1;
    const s = this.slots;
    for (let j = 0; j < end; j += 3) {
      const line = from[j + 2];
      if (line === 0) continue;
      let n = from[j + 1] & mask;
      while (s[3 * n + 2] !== 0) n = (n + 1) & mask;
      s[3 * n] = from[j];
      s[3 * n + 1] = from[j + 1];
      s[3 * n + 2] = line;
    }
  }
}
