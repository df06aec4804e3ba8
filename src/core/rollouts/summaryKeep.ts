import type { ToolCall, Transcript, Turn } from '../transcript/model';
import { heldOnce } from './facts';
import { SpanCall } from './spans';

/** A step of the path that tells a turn: the reward, then each call's name, arguments, error and unseen result. */
type KeyPart = string | number | boolean | Turn | undefined;

/**
 * Equal turns told apart without building a key text per turn: each part of the turn leads one step down a tree of
 * maps, and the node reached holds the kept turn. Joined into one string per turn, the key cost more than a third of
 * keeping 100,000 rollouts (built, flattened and hashed four times a rollout).
 */
class TurnNode {
  private readonly next = new Map<KeyPart, TurnNode>();
  kept?: Turn;
  /** At the end of a path of kept turns: the list of them. */
  list?: Turn[];

  to(part: KeyPart): TurnNode {
    let node = this.next.get(part);
    if (!node) this.next.set(part, (node = new TurnNode()));
    return node;
  }
}

/** Marks that tell a call's stored argument text from arguments given decoded, so a string and the same text as JSON stay apart. */
const STORED = 1;
const DECODED = 2;

/** The node of a call's arguments: a trace's stored text (only the first of equal turns decodes its arguments), else the decoded value's text. */
function argumentsNode(node: TurnNode, call: ToolCall): TurnNode {
  const source = call instanceof SpanCall ? call.argumentsSource : undefined;
  if (source !== undefined) return node.to(STORED).to(source);
  const args = call.arguments;
  return node.to(DECODED).to(typeof args === 'object' && args !== null ? JSON.stringify(args) : `${typeof args}:${String(args)}`);
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
  const turns = new TurnNode();
  const turn = (t: Turn): Turn => {
    let node = turns.to(t.reward);
    for (const c of t.toolCalls)
      node = argumentsNode(node.to(c.name), c)
        .to(c.error ?? '')
        .to(c.resultNotSeen === true);
    if (!node.kept) {
      const kept: Turn = { toolCalls: t.toolCalls.map(call) };
      if (t.reward !== undefined) kept.reward = t.reward;
      node.kept = kept;
    }
    return node.kept;
  };
  // The same turns in the same order are one list too: the report's facts read each list's actions once.
  const lists = new TurnNode();
  const turnList = (all: readonly Turn[]): Turn[] => {
    const kept = all.map(turn);
    let node = lists;
    for (const t of kept) node = node.to(t);
    return (node.list ??= kept);
  };
  return (t) => ({ ...t, task: { ...t.task, prompt: once(t.task.prompt) }, groupKey: once(t.groupKey), turns: turnList(t.turns) });
}
