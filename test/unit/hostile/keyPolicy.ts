import { createServer } from 'node:http';
import { listenForAWhile } from './lifetime';

// A well-behaved OpenAI-compatible policy that remembers every Authorization header it saw: a test holds what reached it.

export interface KeyPolicy {
  baseUrl: string;
  /** The Authorization header of every call, in order (empty when none was sent). */
  keysSeen: string[];
  close(): Promise<void>;
}

const ANSWER = JSON.stringify({
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1 },
});

/** `answerAfter`: calls are answered once it settles (a policy still thinking while the runtime holds their requests). */
export async function startKeyPolicy(lifetimeMs = 60_000, answerAfter: Promise<unknown> = Promise.resolve()): Promise<KeyPolicy> {
  const keysSeen: string[] = [];
  const server = createServer((req, res) => {
    keysSeen.push(String(req.headers.authorization ?? ''));
    req.resume().on('end', () => void answerAfter.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER)));
  });
  const { port, close } = await listenForAWhile(server, lifetimeMs);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, keysSeen, close };
}
