/**
 * Remembers string keys (ids, answers) with the line of their first occurrence, by a 64-bit hash in typed arrays:
 * no string is retained and no number is boxed, so memory stays small and the garbage collector idle on files of millions of rows.
 * Two different keys share a hash with odds of about n²/2⁶⁵.
 */
export class KeyTable {
  /** Set once `maxKeys` keys are held: later new keys are not remembered, which keeps memory bounded (about 50 MB). */
  full = false;
  /** Slot i is [hash high, hash low, 1-based line] at 3i, side by side so a probe touches one cache line; line 0 marks an empty slot. */
  private slots = new Int32Array(3 << 16);
  private capacity = 1 << 16;
  private count = 0;
  // The two halves of the last hash, kept in fields so hashing allocates nothing.
  private a = 0;
  private b = 0;

  constructor(private readonly maxKeys = 2_000_000) {}

  get size(): number {
    return this.count;
  }

  /** The line of the key's first occurrence, or undefined after recording `line` (≥ 1) as that first occurrence. */
  firstOrAdd(key: string, line: number): number | undefined {
    this.hash(key);
    let i = this.slot();
    if (this.slots[i + 2] !== 0) return this.slots[i + 2];
    if (this.count >= this.maxKeys) {
      this.full = true;
      return undefined;
    }
    if ((this.count + 1) * 2 > this.capacity) {
      this.grow();
      i = this.slot();
    }
    this.slots[i] = this.a;
    this.slots[i + 1] = this.b;
    this.slots[i + 2] = Math.max(1, line);
    this.count++;
    return undefined;
  }

  get(key: string): number | undefined {
    this.hash(key);
    const line = this.slots[this.slot() + 2];
    return line === 0 ? undefined : line;
  }

  private hash(key: string): void {
    let a = 0x811c9dc5 | 0;
    let b = (0x9747b28c ^ key.length) | 0;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    this.a = a;
    this.b = b;
  }

  /** The offset of the slot holding the last hash, or of the empty slot where it would go. */
  private slot(): number {
    const mask = this.capacity - 1;
    const s = this.slots;
    let n = this.b & mask;
    while (s[3 * n + 2] !== 0 && (s[3 * n] !== this.a || s[3 * n + 1] !== this.b)) n = (n + 1) & mask;
    return 3 * n;
  }

  private grow(): void {
    const old = this.slots;
    this.capacity *= 2;
    this.slots = new Int32Array(3 * this.capacity);
    for (let j = 0; j < old.length; j += 3) {
      if (old[j + 2] === 0) continue;
      this.a = old[j];
      this.b = old[j + 1];
      const i = this.slot();
      this.slots[i] = old[j];
      this.slots[i + 1] = old[j + 1];
      this.slots[i + 2] = old[j + 2];
    }
  }
}
