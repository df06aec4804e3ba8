import assert from 'node:assert/strict';
import { Utf8Pieces } from '../../../../src/core/text/utf8Pieces';

/** What a streaming TextDecoder gives for the same pieces: the reference Utf8Pieces must match. */
function streamed(pieces: Uint8Array[]): string {
  const decoder = new TextDecoder('utf-8');
  return pieces.map((p) => decoder.decode(p, { stream: true })).join('') + decoder.decode();
}

function decoded(pieces: Uint8Array[]): string {
  const decoder = new Utf8Pieces();
  return pieces.map((p) => decoder.decode(p)).join('') + decoder.end();
}

describe('Utf8Pieces', () => {
  it('decodes random bytes cut anywhere as a streaming TextDecoder does: invalid bytes, cut sequences, a byte order mark', () => {
    // Lead bytes of every length, continuation bytes, bytes no sequence starts with, a BOM's bytes, ASCII.
    const alphabet = [0x41, 0x0a, 0x80, 0x9f, 0xa0, 0xbf, 0xbb, 0xc0, 0xc2, 0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
    let seed = 11;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    for (let t = 0; t < 20_000; t++) {
      const bytes = Uint8Array.from({ length: next(16) }, () => alphabet[next(alphabet.length)]);
      if (next(4) === 0) bytes.set([0xef, 0xbb, 0xbf].slice(0, Math.min(3, bytes.length)));
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < bytes.length;) {
        const end = Math.min(bytes.length, at + 1 + next(4));
        pieces.push(bytes.subarray(at, end));
        at = end;
      }
      assert.equal(decoded(pieces), streamed(pieces), `bytes ${[...bytes].map((b) => b.toString(16)).join(' ')}`);
    }
  });

  it('joins a character cut between pieces and drops only a leading byte order mark', () => {
    const text = new TextEncoder().encode('\ufeffé€😀\ufeff');
    assert.equal(decoded([text.subarray(0, 2), text.subarray(2, 5), text.subarray(5, 9), text.subarray(9)]), 'é€😀\ufeff');
  });
});
