import { StringDecoder } from 'node:string_decoder';

/**
 * UTF-8 bytes in pieces to text, as a streaming `TextDecoder` gives it (a leading byte order mark dropped, invalid bytes as
 * U+FFFD, a sequence cut between pieces joined), through Node's `StringDecoder`: ASCII comes out as one-byte strings,
 * which `JSON.parse` reads faster than the two-byte strings Node's streaming `TextDecoder` makes.
 */
export class Utf8Pieces {
  private readonly decoder = new StringDecoder('utf8');
  private started = false;

  decode(piece: Uint8Array): string {
    return this.withoutMark(this.decoder.write(piece));
  }

  /** What is still held: a sequence cut off at the end of the input, as U+FFFD. */
  end(): string {
    return this.withoutMark(this.decoder.end());
  }

  /** The first text out drops a byte order mark. */
  private withoutMark(text: string): string {
    if (this.started || !text) return text;
    this.started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}
