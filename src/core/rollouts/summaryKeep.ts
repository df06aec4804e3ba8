import type { ToolCall, Transcript, Turn } from '../transcript/model';
import { heldOnce } from './facts';
import { SpanCall } from './spans';

/**
 * A tool call's arguments as text, to tell repeated turns: a string and the same text as JSON stay apart. A trace's call
 * gives its stored text, so only the first of equal turns decodes its arguments.
 */
function argumentsText(call: ToolCall): string {
  const source = call instanceof SpanCall ? call.argumentsSource : undefined;
  if (source !== undefined) return `\u0003${source}`;
  const args = call.arguments;
  return typeof args === 'object' && args !== null ? JSON.stringify(args) : `${typeof args}:${String(args)}`;
}

/**
 * A keeper of what a summary reads of each rollout (`mtrl rollouts` without `--transcripts`, `mtrl signal` on rollouts
 * read): its task, group, step, reward, outcome and the tools it called with their arguments (and whether their result
 * was seen), each repeated text (a prompt, a group key) and each repeated turn (the same calls, the same reward) held once.
 * Thinking, the model's text and tool results are let go: they are most of a trace's text, and with them 100,000
 * rollouts of a run took 600 MB.
 */
export function summaryKeeper(): (t: Transcript) => Transcript {
  const once = heldOnce();
  const call = (c: ToolCall): ToolCall => {
    const kept: ToolCall = { name: once(c.name), arguments: c.arguments };
    if (c.error !== undefined) kept.error = c.error;
    if (c.resultNotSeen) kept.resultNotSeen = true;
    return kept;
  };
  // A turn of 100,000 rollouts is one of a few dozen (one action of six): held once each, they take a third less memory.
  const turns = new Map<string, Turn>();
  const turn = (t: Turn): Turn => {
    let key = t.reward === undefined ? '' : String(t.reward);
    for (const c of t.toolCalls) key += `\u0001${c.name}\u0000${argumentsText(c)}\u0000${c.error ?? ''}${c.resultNotSeen ? '\u0002' : ''}`;
    const known = turns.get(key);
    if (known) return known;
    const kept: Turn = { toolCalls: t.toolCalls.map(call) };
    if (t.reward !== undefined) kept.reward = t.reward;
    turns.set(key, kept);
    return kept;
  };
  return (t) => ({ ...t, task: { ...t.task, prompt: once(t.task.prompt) }, groupKey: once(t.groupKey), turns: t.turns.map(turn) });
}
