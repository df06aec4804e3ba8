import type { ToolCall, Transcript, Turn } from '../transcript/model';
import { heldOnce } from './facts';

/**
 * A keeper of what a summary reads of each rollout (`mtrl rollouts` without `--transcripts`, `mtrl signal` on rollouts
 * read): its task, group, step, reward, outcome and the tools it called with their arguments (and whether their result
 * was seen), each repeated text (a prompt, a group key) held once.
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
  const turn = (t: Turn): Turn => {
    const kept: Turn = { toolCalls: t.toolCalls.map(call) };
    if (t.reward !== undefined) kept.reward = t.reward;
    return kept;
  };
  return (t) => ({ ...t, task: { ...t.task, prompt: once(t.task.prompt) }, groupKey: once(t.groupKey), turns: t.turns.map(turn) });
}
