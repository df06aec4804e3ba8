import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { CheckAllowance, Draw } from '../../core/signal/checkAllowance';
import { ChatStreamReader } from '../../core/signal/chatStream';
import { outsideText } from '../../core/text/display';

/** Where the runtime forwards chat completions: any OpenAI-compatible base URL (ending in /v1), its key and model. */
export interface Policy {
  baseUrl: string;
  /** Replaces the agent's model name (the agent sends its own, e.g. "policy"); absent: forwarded as sent. */
  model?: string;
  /** Sent as `Authorization: Bearer …` (Bedrock's OpenAI-compatible endpoint takes its API key so). */
  apiKey?: string;
}

/** What the relay tells the rollout: the completion it saw (streams read back into one), or why the call failed. */
export interface RelayOutcome {
  completion?: unknown;
  failure?: string;
  /** The answer would have passed the check's allowance: the rollout is to end. */
  overAllowance?: boolean;
}

/** A policy's answer larger than this is cut (64 MB: far above any chat turn, far below what would exhaust memory). */
export const MAX_POLICY_ANSWER_BYTES = 64 * 1024 * 1024;

/** A fetch body's chunks as they arrive (Node's web streams are async-iterable; the DOM typings do not say so). */
const chunksOf = (body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> =>
  (body ?? []) as unknown as AsyncIterable<Uint8Array>;

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`);

/** The OpenAI error shape, with the service's own `message` beside it so every client shows the sentence. */
export const openAiError = (message: string, type = 'invalid_request_error') => ({
  message,
  error: { message, type, param: null, code: null },
});

function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json', retryAfter?: string | null): void {
  const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(text),
    ...(retryAfter ? { 'retry-after': retryAfter } : {}),
  });
  res.end(text);
}

/** How much of a policy's error is read for its message: past it the body is relayed unread. */
const ERROR_READ_BYTES = 64 * 1024;

/** The `message` at the start of an OpenAI-style error body that may be cut anywhere, as one line for the report. */
function errorMessageOf(start: string, status: number): string {
  const quoted = /"message"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(start)?.[1];
  if (quoted === undefined) return `The policy answered ${status}.`;
  let message = quoted;
  try {
    message = JSON.parse(`"${quoted.replace(/\\u?[0-9a-fA-F]{0,3}$|\\$/, '')}"`) as string;
  } catch {
    // A cut escape sequence: the raw text reads well enough.
  }
  return outsideText(message);
}

/**
 * Sends one chat completion to the policy and answers the agent. A streamed answer passes through event by event
 * (never held whole); when the agent did not ask for usage, the policy is asked and its usage-only chunk dropped,
 * so tokens are counted either way.
 */
export async function relayChat(
  policy: Policy,
  body: unknown,
  res: ServerResponse,
  options: { stream?: boolean; signal: AbortSignal; maxBytes?: number; allowance?: CheckAllowance },
): Promise<RelayOutcome> {
  // What the answer holds while it passes (a stream's pending event and built message, a whole answer's bytes).
  const draw = new Draw(options.allowance ?? new CheckAllowance(Infinity));
  try {
    return await relay(policy, body, res, options, draw);
  } finally {
    draw.release();
  }
}

async function relay(
  policy: Policy,
  body: unknown,
  res: ServerResponse,
  options: { stream?: boolean; signal: AbortSignal; maxBytes?: number; allowance?: CheckAllowance },
  draw: Draw,
): Promise<RelayOutcome> {
  const cap = options.maxBytes ?? MAX_POLICY_ANSWER_BYTES;
  const request: Record<string, unknown> = { ...(body && typeof body === 'object' ? body : {}) };
  if (policy.model) request.model = policy.model;
  if (options.stream) request.stream = true;
  const streaming = request.stream === true;
  const asked = (request.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  if (streaming && !asked) request.stream_options = { ...(request.stream_options as object), include_usage: true };
  const url = `${policy.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const call = new AbortController();
  const signal = AbortSignal.any([options.signal, call.signal]);
  // The agent hung up: stop the policy's answer too.
  let agentLeft = false;
  res.once('close', () => {
    agentLeft = !res.writableFinished;
    call.abort();
  });
  // An answer cut by our side is named as such, not as the policy's "This operation was aborted".
  const cutBy = () =>
    options.signal.aborted
      ? 'the local check ended (cancelled, or past its deadline) while the policy was still answering'
      : agentLeft
        ? 'the agent hung up while the policy was still answering (its rollout ended, e.g. at the --timeout)'
        : undefined;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(policy.apiKey ? { authorization: `Bearer ${policy.apiKey}` } : {}) },
      body: JSON.stringify(request),
      signal,
    });
  } catch (error) {
    const cut = cutBy();
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    const failure = cut
      ? `The policy at ${url} had not answered yet: ${cut}.`
      : `The policy at ${url} did not answer (${cause}). Is it running?`;
    sendJson(res, 502, openAiError(failure, 'policy_unreachable'));
    return { failure };
  }
  const tooLarge = `The policy at ${url} answered more than ${size(cap)}; the local job runtime cuts answers at ${size(cap)}.`;
  const overAllowance = () => options.allowance!.exceeded(`The policy at ${url}'s answer (${size(draw.held)} held so far)`);
  const type = response.headers.get('content-type') ?? '';
  if (streaming && response.ok && type.includes('text/event-stream') && response.body) {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    const reader = new ChatStreamReader();
    const decoder = new TextDecoder();
    let bytes = 0;
    const write = async (text: string) => {
      if (!res.write(text)) await once(res, 'drain', { signal });
    };
    try {
      // Past the cap the loop is left (which cancels the body) before anything is aborted: an abort inside it would
      // throw out of the loop and lose the sentence.
      let over = false;
      for await (const part of chunksOf(response.body)) {
        bytes += part.byteLength;
        if (bytes > cap) break;
        for (const event of reader.push(decoder.decode(part, { stream: true }))) if (!(event.usageOnly && !asked)) await write(event.raw);
        if ((over = !draw.resize(reader.heldLength))) break;
      }
      if (bytes > cap || over) {
        const failure = over ? overAllowance() : tooLarge;
        // Not awaited: an agent that reads the event and hangs up would otherwise turn the sentence into "aborted".
        res.end(`data: ${JSON.stringify(openAiError(failure, 'policy_answer_too_large'))}\n\n`);
        call.abort();
        return { failure, ...(over ? { overAllowance: true } : {}) };
      }
      for (const event of reader.end()) if (!(event.usageOnly && !asked)) await write(event.raw);
    } catch (error) {
      res.destroy();
      return { failure: `The policy's stream from ${url} broke off (${cutBy() ?? (error as Error).message}).` };
    }
    res.end();
    return { completion: reader.completion() };
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  let over = false;
  try {
    for await (const part of chunksOf(response.body)) {
      bytes += part.byteLength;
      if (bytes > cap || (over = !draw.more(part.byteLength))) break;
      chunks.push(Buffer.from(part));
    }
  } catch (error) {
    const cut = cutBy();
    const failure = cut
      ? `The answer of the policy at ${url} was not read to its end: ${cut}.`
      : `The policy at ${url} closed its answer (${response.status}) after ${bytes} bytes, before its end (${(error as Error).message}).`;
    sendJson(res, 502, openAiError(failure, 'policy_broke_off'));
    return { failure };
  }
  if (bytes > cap || over) {
    const failure = over ? overAllowance() : tooLarge;
    sendJson(res, 502, openAiError(failure, 'policy_answer_too_large'));
    call.abort();
    return { failure, ...(over ? { overAllowance: true } : {}) };
  }
  const answer = Buffer.concat(chunks);
  // Copied into one buffer: the pieces go now, not after the copies below (four 63 MB errors at once peaked at 603 MB).
  chunks.length = 0;
  if (!response.ok && answer.byteLength > ERROR_READ_BYTES) {
    // A huge error goes to the agent as it came; only its start is read for the sentence the report quotes.
    sendJson(res, response.status, answer, type || 'application/json', response.headers.get('retry-after'));
    return { failure: errorMessageOf(answer.subarray(0, ERROR_READ_BYTES).toString('utf8'), response.status) };
  }
  const text = answer.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const failure = `The policy at ${url} answered ${response.status} with text that is not JSON.`;
    sendJson(res, 502, openAiError(failure, 'bad_policy'));
    return { failure };
  }
  // A 429's or 503's Retry-After goes to the agent: its client's backoff reads it.
  sendJson(res, response.status, answer, type || 'application/json', response.headers.get('retry-after'));
  if (response.ok) return { completion: parsed };
  const message =
    (parsed as { error?: { message?: unknown }; message?: unknown })?.error?.message ?? (parsed as { message?: unknown })?.message;
  // The policy's error body is outside text: one line, cut, and the report quotes it.
  return { failure: message === undefined || message === null ? `The policy answered ${response.status}.` : outsideText(String(message)) };
}
