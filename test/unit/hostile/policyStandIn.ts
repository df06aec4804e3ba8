import { createServer, type ServerResponse } from 'node:http';
import { listenForAWhile } from './lifetime';

// An OpenAI-compatible policy that misbehaves on purpose: an answer that never ends (bounded: `bytes` in all, the cap + 1),
// as one JSON body or as server-sent events when the agent asks for a stream, an error status with a huge body, or a
// complete answer of any size.

/** `error`: a well-formed OpenAI error whose message makes the body `bytes` long; `answer`: a well-formed completion as long. */
export type PolicyMode =
  { kind: 'endless'; bytes: number } | { kind: 'error'; status: number; bytes: number } | { kind: 'answer'; bytes: number };

/** Writes `bytes` bytes: `head`, `piece` repeated in chunks of about 64 KiB, `tail`; stops when the client goes. */
function pump(res: ServerResponse, bytes: number, head: string, piece: string, tail = ''): void {
  // Whole pieces only, so every event of a stream stays well-formed up to the cut.
  const chunk = Buffer.from(piece.repeat(Math.max(1, Math.floor(65_536 / piece.length))));
  let left = bytes - Buffer.byteLength(head) - Buffer.byteLength(tail);
  res.write(head);
  const more = () => {
    while (left > 0 && !res.destroyed) {
      const part = chunk.subarray(0, Math.min(chunk.length, left));
      left -= part.length;
      if (!res.write(part)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end(tail);
  };
  more();
}

const delta = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'x'.repeat(4000) } }] })}\n\n`;

/** Starts the policy on 127.0.0.1 (base URL ending in /v1); it closes itself after `lifetimeMs` (default 120 s). */
export async function startPolicyStandIn(mode: PolicyMode, lifetimeMs = 120_000): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.length < 1e6 ? c : ''));
    req.on('end', () => {
      let stream = false;
      try {
        stream = (JSON.parse(text) as { stream?: unknown }).stream === true;
      } catch {
        // Not JSON: answered as a plain request.
      }
      if (mode.kind === 'error') {
        res.writeHead(mode.status, { 'content-type': 'application/json' });
        return pump(res, mode.bytes, '{"error":{"type":"server_error","message":"', 'overloaded ', '"}}');
      }
      if (stream && mode.kind === 'endless') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return pump(res, mode.bytes, '', delta);
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      pump(res, mode.bytes, '{"choices":[{"index":0,"message":{"role":"assistant","content":"', 'x', mode.kind === 'answer' ? '"}}]}' : '');
    });
  });
  const { port, close } = await listenForAWhile(server, lifetimeMs);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close };
}
