// A chat completion streamed as server-sent events (`data: {chunk}` blocks, usage in a last chunk without choices,
// `data: [DONE]`), read as it passes: each whole event is handed on, and the message it builds is kept.

/** One server-sent event, with the blank line that ends it, as it came. */
export interface StreamEvent {
  raw: string;
  /** The parsed `data:` JSON; undefined for `[DONE]`, comments and text that is not JSON. */
  chunk?: Record<string, unknown>;
  /** A chunk that carries only token usage (the answer to `stream_options.include_usage`). */
  usageOnly: boolean;
}

export interface StreamUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

interface ToolCallDelta {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

interface BuiltToolCall {
  id?: string;
  type: string;
  function: { name: string; arguments: string };
}

const EVENT_ENDS = /\r?\n\r?\n/g;
/** An event's end is at most 4 characters (`\r\n\r\n`): this many of the pending text may begin one. */
const END_OVERLAP = 3;

function parseEvent(raw: string): StreamEvent {
  const data = raw
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  if (!data || data === '[DONE]') return { raw, usageOnly: false };
  try {
    const parsed: unknown = JSON.parse(data);
    if (!parsed || typeof parsed !== 'object') return { raw, usageOnly: false };
    const chunk = parsed as Record<string, unknown>;
    const usageOnly = Array.isArray(chunk.choices) && chunk.choices.length === 0 && !!chunk.usage;
    return { raw, chunk, usageOnly };
  } catch {
    return { raw, usageOnly: false };
  }
}

/** Splits a stream into events and builds the assistant message and usage the chunks spell out. */
export class ChatStreamReader {
  // The pending event is kept in pieces and only the new text (with the last few pending characters) is searched for
  // its end: a line that never ends costs its length once, not once per chunk.
  private pieces: string[] = [];
  private pendingChars = 0;
  private tail = '';
  private content = '';
  private reasoning = '';
  private readonly toolCalls: BuiltToolCall[] = [];
  private finishReason?: string;
  usage?: StreamUsage;

  /** Characters of the event still waiting for its end. */
  get pendingLength(): number {
    return this.pendingChars;
  }

  /** Characters the reader holds: the pending event and the message it builds. */
  get heldLength(): number {
    const args = this.toolCalls.reduce((n, c) => n + (c?.function.arguments.length ?? 0) + (c?.function.name.length ?? 0), 0);
    return this.pendingChars + this.content.length + this.reasoning.length + args;
  }

  /** The whole events completed by this text; a partial one waits for the rest. */
  push(text: string): StreamEvent[] {
    const window = this.tail + text;
    const offset = this.tail.length;
    const events: StreamEvent[] = [];
    let start = -1;
    let match: RegExpExecArray | null;
    EVENT_ENDS.lastIndex = 0;
    while ((match = EVENT_ENDS.exec(window))) {
      const end = match.index + match[0].length;
      const raw = start < 0 ? this.pieces.join('') + window.slice(offset, end) : window.slice(start, end);
      events.push(this.read(parseEvent(raw)));
      start = end;
    }
    if (start < 0) {
      this.pieces.push(text);
      this.pendingChars += text.length;
      this.tail = window.slice(-END_OVERLAP);
    } else {
      const rest = window.slice(start);
      this.pieces = rest ? [rest] : [];
      this.pendingChars = rest.length;
      this.tail = rest.slice(-END_OVERLAP);
    }
    return events;
  }

  /** What is left when the stream ends without a final blank line. */
  end(): StreamEvent[] {
    const rest = this.pieces.join('');
    this.pieces = [];
    this.pendingChars = 0;
    this.tail = '';
    return rest.trim() ? [this.read(parseEvent(`${rest}\n\n`))] : [];
  }

  private read(event: StreamEvent): StreamEvent {
    const chunk = event.chunk;
    if (!chunk) return event;
    if (chunk.usage && typeof chunk.usage === 'object') this.usage = chunk.usage as StreamUsage;
    const choice = (Array.isArray(chunk.choices) ? chunk.choices[0] : undefined) as
      { delta?: Record<string, unknown>; finish_reason?: unknown } | undefined;
    const delta = choice?.delta ?? {};
    if (typeof delta.content === 'string') this.content += delta.content;
    const thinking = delta.reasoning_content ?? delta.reasoning;
    if (typeof thinking === 'string') this.reasoning += thinking;
    for (const d of Array.isArray(delta.tool_calls) ? (delta.tool_calls as ToolCallDelta[]) : []) {
      const i = typeof d.index === 'number' ? d.index : this.toolCalls.length;
      const call = (this.toolCalls[i] ??= { type: 'function', function: { name: '', arguments: '' } });
      if (d.id) call.id = d.id;
      if (d.function?.name) call.function.name += d.function.name;
      if (d.function?.arguments) call.function.arguments += d.function.arguments;
    }
    if (typeof choice?.finish_reason === 'string') this.finishReason = choice.finish_reason;
    return event;
  }

  /** The stream as one non-streamed chat completion: what a recording reads. */
  completion(): { choices: { message: Record<string, unknown>; finish_reason?: string }[]; usage?: StreamUsage } {
    const message: Record<string, unknown> = { role: 'assistant', content: this.content || null };
    if (this.reasoning) message.reasoning_content = this.reasoning;
    const calls = this.toolCalls.filter(Boolean);
    if (calls.length) message.tool_calls = calls;
    return {
      choices: [{ message, ...(this.finishReason ? { finish_reason: this.finishReason } : {}) }],
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }
}
