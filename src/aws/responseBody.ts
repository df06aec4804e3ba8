const megabytes = (bytes: number) => `${Math.round(bytes / 2 ** 20).toLocaleString('en')} MB`;

/** A response body past its cap (counted after decompression, so a small gzip bomb is refused as it inflates). */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
  constructor(
    readonly url: string,
    readonly limit: number,
  ) {
    super(`the answer from ${url} passed ${megabytes(limit)} (after decompression) and was not read further.`);
  }
}

/** What reads running side by side (a job's trace artifacts) may hold at once: a read that would pass it is cut. */
export interface HeldBytes {
  held: number;
  /** Set once a read was cut: every read sharing it is cut at its next chunk (bodies that big are not read on). */
  spent?: boolean;
  readonly limit: number;
  /** The reads that share it, in words: "trace artifacts read at once". */
  readonly what: string;
}

/** A body cut because the reads beside it already held their shared allowance (each body alone may be within its own cap). */
export class HeldTooMuch extends Error {
  override readonly name = 'HeldTooMuch';
  constructor(url: string, allowance: HeldBytes) {
    super(`the answer from ${url} was not read further: the ${allowance.what} held more than ${megabytes(allowance.limit)} together.`);
  }
}

/** An answer that did not finish within the request's time: no headers (`bytesRead` undefined), or a body drip-fed or stalled. */
export class SlowAnswer extends Error {
  override readonly name = 'SlowAnswer';
  constructor(
    readonly url: string,
    readonly bytesRead: number | undefined,
    readonly seconds: number,
  ) {
    super(
      bytesRead === undefined
        ? `${url} accepted the connection but gave no answer within ${seconds} s.`
        : `${url} answered but sent only ${bytesRead} bytes of its body in ${seconds} s.`,
    );
  }
}

/** The request's time limit, which the body's read shares. */
interface BodyTimeout {
  /** Aborts at the request's time limit. */
  signal: AbortSignal;
  seconds: number;
}

/**
 * The one bounded reader for an answer's body (after its headers came): chunks joined as text, stopped as soon as they
 * pass `limit` bytes (counted as delivered, after any decompression), and a stall past the request's time limit told as
 * slow. `what` names the service and the object in the sentences.
 */
export async function readBoundedText(
  chunks: AsyncIterable<Uint8Array>,
  what: string,
  limit: number,
  timeout: BodyTimeout,
  shared?: HeldBytes,
): Promise<string> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  let counted = 0;
  try {
    for await (const chunk of chunks) {
      bytes += chunk.byteLength;
      // Leaving the loop cancels the stream: nothing past the cap is read.
      if (bytes > limit) throw new BodyTooLarge(what, limit);
      if (shared) {
        if (shared.spent || shared.held + chunk.byteLength > shared.limit) {
          shared.spent = true;
          throw new HeldTooMuch(what, shared);
        }
        shared.held += chunk.byteLength;
        counted += chunk.byteLength;
      }
      parts.push(decoder.decode(chunk, { stream: true }));
    }
  } catch (error) {
    if (timeout.signal.aborted && !(error instanceof BodyTooLarge) && !(error instanceof HeldTooMuch))
      throw new SlowAnswer(what, bytes, timeout.seconds);
    throw error;
  } finally {
    // Counted while read; the text handed on is parsed and let go by the caller.
    if (shared) shared.held -= counted;
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** A fetch answer's body as text, bounded as readBoundedText says; `timeout` is the request's own time limit. */
export function readBodyText(response: Response, url: string, limit: number, timeout: BodyTimeout): Promise<string> {
  // Node iterates web streams; the DOM types do not say so.
  return response.body ? readBoundedText(response.body as unknown as AsyncIterable<Uint8Array>, url, limit, timeout) : Promise.resolve('');
}
