import { Buffer } from 'node:buffer';

/** Bytes a UTF-8 sequence that starts with `lead` takes (1 for a byte no sequence starts with: it decodes alone). */
function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/** Where a sequence cut off by the end of `bytes` starts, or `bytes.length` when none is. */
function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back];
    if ((b & 0xc0) !== 0x80) return sequenceLength(b) > back ? n - back : n;
  }
  return n;
}

const BOM = [0xef, 0xbb, 0xbf];

/**
 * UTF-8 bytes in pieces to text, as a streaming `TextDecoder` gives it (a leading byte order mark dropped, invalid bytes as
 * U+FFFD, a sequence cut between pieces joined), through Buffer's decoder: ASCII comes out as one-byte strings, which
 * `JSON.parse` reads faster than the two-byte strings Node's streaming `TextDecoder` makes.
 */
export class Utf8Pieces {
  /** The start of a sequence the last piece cut off. */
  private held: Uint8Array = new Uint8Array(0);
  private started = false;

  decode(piece: Uint8Array): string {
    const bytes = this.held.length ? joined(this.held, piece) : piece;
    const cut = completeLength(bytes);
    this.held = bytes.slice(cut);
    return this.text(bytes, cut);
  }

  /** What is still held: a sequence cut off at the end of the input, as U+FFFD. */
  end(): string {
    const rest = this.held;
    this.held = new Uint8Array(0);
    return this.text(rest, rest.length);
  }

  private text(bytes: Uint8Array, end: number): string {
    if (end === 0) return '';
    let start = 0;
    if (!this.started) {
      this.started = true;
      if (end >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2]) start = 3;
    }
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', start, end);
  }
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
