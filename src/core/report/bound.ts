import type { ToolCall, Transcript, Turn } from '../transcript/model';
import { summaryKeeper } from '../rollouts/summaryKeep';

/** What a shared report keeps of a large source, so 1,000 rollouts stay a file a teammate can open (≤ 5 MB). */
export interface ReportLimits {
  /** The first rollouts of each GRPO group, in the order read. */
  rolloutsPerGroup: number;
  /** Characters kept of each thinking, reply, argument or result text. */
  textChars: number;
  /** UTF-8 bytes of the rollouts carried: with the page's ~0.5 MB of script, the file stays under 5 MB. */
  bytes: number;
}

export const REPORT_LIMITS: ReportLimits = { rolloutsPerGroup: 16, textChars: 4000, bytes: 4_200_000 };

export interface BoundRollouts {
  rollouts: Transcript[];
  /** Said in the report when anything was left out. */
  notes: string[];
}

function cut(text: string, max: number, counter: { texts: number }): string {
  if (text.length <= max) return text;
  counter.texts++;
  return `${text.slice(0, max)}… (${(text.length - max).toLocaleString('en')} more characters not in this report)`;
}

/** A result or argument cut when it is long: JSON is kept as JSON while short, else shown as its cut text. */
function cutValue(value: unknown, max: number, counter: { texts: number }): unknown {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text !== undefined && text.length > max ? cut(text, max, counter) : value;
}

function cutCall(call: ToolCall, max: number, counter: { texts: number }): ToolCall {
  return {
    ...call,
    arguments: cutValue(call.arguments, max, counter),
    ...(call.result === undefined ? {} : { result: cutValue(call.result, max, counter) }),
    ...(call.error === undefined ? {} : { error: cut(call.error, max, counter) }),
  };
}

function cutTurn(turn: Turn, max: number, counter: { texts: number }): Turn {
  return {
    ...turn,
    ...(turn.thinking === undefined ? {} : { thinking: cut(turn.thinking, max, counter) }),
    ...(turn.text === undefined ? {} : { text: cut(turn.text, max, counter) }),
    toolCalls: turn.toolCalls.map((c) => cutCall(c, max, counter)),
  };
}

const encoder = new TextEncoder();

/** The first `perGroup` rollouts of each group, cut, with their sizes; how many each group had. */
/** The first `perGroup` rollouts of each group, cut, each with its place in its group and its size; how many each group had. */
function firstOfEachGroup(rollouts: readonly Transcript[], perGroup: number, textChars: number) {
  const taken = new Map<string, number>();
  const kept: { rollout: Transcript; place: number; bytes: number }[] = [];
  const counter = { texts: 0 };
  for (const t of rollouts) {
    const place = taken.get(t.groupKey) ?? 0;
    taken.set(t.groupKey, place + 1);
    if (place >= perGroup) continue;
    const rollout = {
      ...t,
      task: { ...t.task, prompt: cut(t.task.prompt, textChars, counter) },
      turns: t.turns.map((turn) => cutTurn(turn, textChars, counter)),
    };
    kept.push({ rollout, place, bytes: encoder.encode(JSON.stringify(rollout)).length });
  }
  return { kept, taken, texts: counter.texts };
}

/**
 * The first rollouts of each group (as many as fit the byte budget, at most `rolloutsPerGroup`), long texts cut, and a
 * sentence for each thing left out; when one rollout per group is still too much, the first groups that fit.
 */
export function boundRollouts(rollouts: readonly Transcript[], limits: ReportLimits = REPORT_LIMITS): BoundRollouts {
  const pick = firstOfEachGroup(rollouts, limits.rolloutsPerGroup, limits.textChars);
  const bytesAt = (n: number) => pick.kept.reduce((sum, k) => (k.place < n ? sum + k.bytes : sum), 0);
  let perGroup = limits.rolloutsPerGroup;
  while (perGroup > 1 && bytesAt(perGroup) > limits.bytes) perGroup--;
  let bytes = 0;
  const kept: Transcript[] = [];
  for (const k of pick.kept) {
    if (k.place >= perGroup) continue;
    if (bytes + k.bytes > limits.bytes) break;
    bytes += k.bytes;
    kept.push(k.rollout);
  }
  const notes: string[] = [];
  const left = rollouts.length - kept.length;
  const larger = [...pick.taken.values()].filter((n) => n > perGroup).length;
  if (larger)
    notes.push(
      `This report shows the first ${perGroup === 1 ? 'rollout' : `${perGroup} rollouts`} of each group (${larger.toLocaleString('en')} groups have more); the counts above are of every rollout.`,
    );
  const groupsShown = new Set(kept.map((t) => t.groupKey)).size;
  if (groupsShown < pick.taken.size)
    notes.push(
      `Only the first ${groupsShown.toLocaleString('en')} of ${pick.taken.size.toLocaleString('en')} groups fit in this report's size.`,
    );
  if (left) notes.push(`${left.toLocaleString('en')} of ${rollouts.length.toLocaleString('en')} rollouts are not in this report.`);
  if (pick.texts) {
    const one = pick.texts === 1;
    notes.push(
      `${pick.texts.toLocaleString('en')} ${one ? 'text' : 'texts'} longer than ${limits.textChars.toLocaleString('en')} characters ${one ? 'is' : 'are'} cut, each saying how much was left out.`,
    );
  }
  return { rollouts: kept, notes };
}

/**
 * What a report keeps of each rollout as it is read: the first `rolloutsPerGroup` of each group whole (the most the report
 * carries), the rest as a summary keeps them, so the counts stay of every rollout without a large job's text in memory.
 */
export function reportKeeper(limits: ReportLimits = REPORT_LIMITS): (t: Transcript) => Transcript {
  const summary = summaryKeeper();
  const seen = new Map<string, number>();
  return (t) => {
    const n = seen.get(t.groupKey) ?? 0;
    seen.set(t.groupKey, n + 1);
    return n < limits.rolloutsPerGroup ? t : summary(t);
  };
}
