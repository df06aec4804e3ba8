/**
 * Remembers string keys (ids, answers) with the line of their first occurrence, by a 53-bit hash in typed arrays:
 * no string is retained, so memory stays small and garbage collection idle on files of millions of rows.
 * Two different keys share a hash with odds of about n²/2⁵⁴ (1 in 10⁸ for a million keys).
 */
export class KeyTable {
  /** Set once `maxKeys` keys are held: later new keys are not remembered, which keeps memory bounded (about 50 MB). */
  full = false;
  private hashes = new Float64Array(1 << 14);
  private lines = new Int32Array(1 << 14);
  private count = 0;

  constructor(private readonly maxKeys = 2_000_000) {}

  get size(): number {
    return this.count;
  }

  /** The line of the key's first occurrence, or undefined after recording `line` as that first occurrence. */
  firstOrAdd(key: string, line: number): number | undefined {
    const h = hash(key);
    let i = this.slot(h);
    if (this.hashes[i] === h) return this.lines[i];
    if (this.count >= this.maxKeys) {
      this.full = true;
      return undefined;
    }
    if ((this.count + 1) * 2 > this.hashes.length) {
      this.grow();
      i = this.slot(h);
    }
    this.hashes[i] = h;
    this.lines[i] = line;
    this.count++;
    return undefined;
  }

  get(key: string): number | undefined {
    const h = hash(key);
    const i = this.slot(h);
    return this.hashes[i] === h ? this.lines[i] : undefined;
  }

  /** The slot holding `h`, or the empty slot where it would go. */
  private slot(h: number): number {
    const mask = this.hashes.length - 1;
    // The low 32 bits of the hash pick the slot.
    let i = (h | 0) & mask;
    while (this.hashes[i] !== 0 && this.hashes[i] !== h) i = (i + 1) & mask;
    return i;
  }

  private grow(): void {
    const old = this.hashes;
    const oldLines = this.lines;
    this.hashes = new Float64Array(old.length * 2);
    this.lines = new Int32Array(old.length * 2);
    for (let j = 0; j < old.length; j++) {
      if (old[j] === 0) continue;
      const i = this.slot(old[j]);
      this.hashes[i] = old[j];
      this.lines[i] = oldLines[j];
    }
  }
}

/** Two 32-bit multiplicative hashes folded into a non-zero 53-bit integer (0 marks an empty slot). */
function hash(key: string): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return ((a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff)) || 1;
}
