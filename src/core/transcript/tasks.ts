import type { Task, Transcript } from './model';

/** Leading characters a prompt is indexed by: most agents put the row's prompt first and add their own text after. */
const PREFIX = 24;

/**
 * Finds the dataset row a rollout played: the row whose prompt text its first user message contains (agents add
 * per-rollout text around the prompt), the longest when several do. Rows sharing one prompt text tell no task apart
 * and are left out.
 */
export class TaskMatcher {
  private readonly prompts: string[] = [];
  private readonly indices: number[] = [];
  private readonly exact = new Map<string, number>();
  private readonly byPrefix = new Map<string, number[]>();

  constructor(private readonly rows: readonly Record<string, unknown>[]) {
    const seen = new Map<string, number>();
    rows.forEach((row, i) => {
      const prompt = typeof row.prompt === 'string' ? row.prompt.trim() : '';
      if (prompt) seen.set(prompt, seen.has(prompt) ? -1 : i);
    });
    for (const [prompt, i] of seen) {
      if (i < 0) continue;
      const slot = this.prompts.length;
      this.prompts.push(prompt);
      this.indices.push(i);
      this.exact.set(prompt, slot);
      const key = prompt.slice(0, PREFIX);
      const list = this.byPrefix.get(key);
      if (list) list.push(slot);
      else this.byPrefix.set(key, [slot]);
    }
  }

  get size(): number {
    return this.prompts.length;
  }

  /** The row index for a first user message, or undefined when no row's prompt is in it. */
  indexOf(message: string): number | undefined {
    const text = message.trim();
    const exact = this.exact.get(text);
    if (exact !== undefined) return this.indices[exact];
    let best = -1;
    for (const slot of this.byPrefix.get(text.slice(0, PREFIX)) ?? [])
      if (text.startsWith(this.prompts[slot]) && (best < 0 || this.prompts[slot].length > this.prompts[best].length)) best = slot;
    if (best < 0)
      for (let slot = 0; slot < this.prompts.length; slot++)
        if (text.includes(this.prompts[slot]) && (best < 0 || this.prompts[slot].length > this.prompts[best].length)) best = slot;
    return best < 0 ? undefined : this.indices[best];
  }

  /** Sets the task's row when its prompt names one; returns whether it did. */
  match(task: Task): boolean {
    if (!task.prompt) return false;
    const index = this.indexOf(task.prompt);
    if (index === undefined) return false;
    task.rowIndex = index;
    task.row = this.rows[index];
    return true;
  }
}

/** What tells a task apart, best first: the matched dataset row, the row id the source names, the pack's label, the exact first message. */
export function taskKeyOf(t: Transcript): string {
  if (t.task.rowIndex !== undefined) return `row ${t.task.rowIndex}`;
  if (t.task.id !== undefined) return `id ${t.task.id}`;
  if (t.env?.label) return `${t.env.pack} ${t.env.label}`;
  return t.task.prompt ? `prompt ${t.task.prompt}` : '?';
}

/** GRPO's group: one task in one step of one job, as readable text (an ARN has no `|`, the task key comes last). */
export function groupKeyOf(t: Transcript): string {
  return `${t.jobArn ?? ''}|${t.step ?? '?'}|${taskKeyOf(t)}`;
}

/**
 * groupKeyOf, each key built once per prompt and job step: a key told by the prompt holds the whole prompt, and built
 * and hashed anew for each of 100,000 rollouts it cost about a twentieth of reading them. The same string is returned
 * for the same group, so the keys' later look-ups compare by identity.
 */
export function groupKeysHeld(): (t: Transcript) => string {
  const byPrompt = new Map<string, Map<string, string>>();
  return (t) => {
    const told = promptTold(t);
    if (told === undefined) return groupKeyOf(t);
    const step = `${t.jobArn ?? ''}|${t.step ?? '?'}`;
    let keys = byPrompt.get(told);
    if (!keys) byPrompt.set(told, (keys = new Map()));
    let key = keys.get(step);
    if (key === undefined) keys.set(step, (key = groupKeyOf(t)));
    return key;
  };
}

/** The prompt when it alone tells the task (taskKeyOf's last case) and its label (taskLabel's), else undefined. */
export function promptTold(t: Transcript): string | undefined {
  return t.task.rowIndex === undefined && t.task.id === undefined && !t.env?.label && t.task.prompt ? t.task.prompt : undefined;
}

/** The task in a few words: the pack's label, else the first line of the prompt, else the row id. */
export function taskLabel(t: Transcript): string {
  if (t.env?.label) return t.env.label;
  const first = t.task.prompt.trimStart().split('\n', 1)[0].trim();
  if (first) return first;
  return t.task.id ?? (t.task.rowIndex !== undefined ? `row ${t.task.rowIndex + 1}` : 'unknown task');
}

/** Said wherever a dataset was given (CLI, board, signal, what-if) and not every rollout matched one of its rows. */
export function unmatchedRowsNote(matched: number, total: number, file: string): string | undefined {
  if (!total || matched >= total) return undefined;
  const rest = matched
    ? 'the others are grouped by their first message'
    : "no rollout's first message contains a row's prompt: is it the data these rollouts played?";
  return `${matched} of ${total} rollouts matched a row of ${file}; ${rest}`;
}
