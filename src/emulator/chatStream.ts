import type { ServerResponse } from 'node:http';

// A chat completion streamed the way OpenAI-compatible servers (vLLM, the Job Runtime) stream it: a role chunk,
// reasoning and content deltas, tool calls with their arguments in pieces, a finish chunk, then, when asked with
// stream_options.include_usage, a usage chunk without choices, and `data: [DONE]`.

interface Completion {
  id: string;
  created: number;
  model: string;
  choices: { message: Record<string, unknown>; finish_reason: string }[];
  usage: Record<string, number>;
}

interface ToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

/** The server-sent events of one completion the scripted policy answered (`chatCompletion`'s 200 body), in order. */
export function completionEvents(body: unknown, includeUsage: boolean): string[] {
  const completion = body as Completion;
  const { id, created, model } = completion;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`;
  const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }]);
  const choice = completion.choices[0];
  const message = choice.message;
  const events = [delta({ role: 'assistant', content: '' })];
  if (typeof message.reasoning_content === 'string') events.push(delta({ reasoning_content: message.reasoning_content }));
  if (typeof message.content === 'string' && message.content) events.push(delta({ content: message.content }));
  ((message.tool_calls ?? []) as ToolCall[]).forEach((call, index) => {
    // The arguments arrive in two pieces, as a model writes them: a client must join them.
    const half = Math.ceil(call.function.arguments.length / 2);
    events.push(
      delta({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }),
      delta({ tool_calls: [{ index, function: { arguments: call.function.arguments.slice(0, half) } }] }),
      delta({ tool_calls: [{ index, function: { arguments: call.function.arguments.slice(half) } }] }),
    );
  });
  events.push(delta({}, choice.finish_reason));
  if (includeUsage) events.push(chunk([], { usage: completion.usage }));
  events.push('data: [DONE]\n\n');
  return events;
}

/** Writes the events one by one, as a streaming server does. */
export function sendCompletionStream(res: ServerResponse, requestId: string, events: readonly string[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-amzn-requestid': requestId });
  for (const event of events) res.write(event);
  res.end();
}
