/** A response body past its cap (counted after decompression, so a small gzip bomb is refused as it inflates). */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
  constructor(
    readonly url: string,
    readonly limit: number,
  ) {
    super(`the answer from ${url} passed ${Math.round(limit / 2 ** 20)} MB (after decompression) and was not read further.`);
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

/** The body as text, read chunk by chunk and cancelled as soon as it passes `limit` bytes; `timeout` is the request's own time limit. */
export async function readBodyText(
  response: Response,
  url: string,
  limit: number,
  timeout: { signal: AbortSignal; seconds: number },
): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limit) throw new BodyTooLarge(url, limit);
      parts.push(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    if (timeout.signal.aborted) throw new SlowAnswer(url, bytes, timeout.seconds);
    throw error;
  }
  parts.push(decoder.decode());
  return parts.join('');
}
