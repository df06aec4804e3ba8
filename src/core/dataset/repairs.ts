import { editDistance } from '../text/editDistance';
import { parseObject } from './fixes';

// Repairs of one row the validator flagged: a misspelled task key, a missing closing brace. Each returns the row's new text, or undefined.

/** The keys a task in the prompt string holds under the task conventions (`task`, and a pack's such as Wordle's). */
const TASK_KEYS = ['prompt', 'answer', 'id'] as const;
type TaskKey = (typeof TASK_KEYS)[number];

/** The key of the task that looks like a misspelling of `wanted` ("answr", "Answer", "anwser"), when exactly one does. */
export function misspelledKey(rowText: string, wanted: TaskKey): string | undefined {
  const row = parseObject(rowText);
  const task = row && typeof row.prompt === 'string' ? parseObject(row.prompt) : undefined;
  if (!task || wanted in task) return undefined;
  const near = Object.keys(task).filter(
    (k) => !(TASK_KEYS as readonly string[]).includes(k) && editDistance(k.toLowerCase(), wanted) <= (wanted.length > 3 ? 2 : 1),
  );
  return near.length === 1 ? near[0] : undefined;
}

/** The row with the task key renamed in place: only the key's text inside the prompt string changes, the rest is kept byte for byte. */
export function renameTaskKey(rowText: string, from: string, to: TaskKey): string | undefined {
  const escaped = `\\"${from}\\"`;
  const at = rowText.indexOf(escaped);
  if (at < 0 || rowText.indexOf(escaped, at + 1) >= 0) return undefined;
  const renamed = `${rowText.slice(0, at)}\\"${to}\\"${rowText.slice(at + escaped.length)}`;
  return misspelledKey(rowText, to) === from && parseObject(renamed) ? renamed : undefined;
}

/** The row with the closing brace(s) it lacks, outside or inside the prompt string, when that makes it a valid task row. */
export function closeRow(rowText: string): string | undefined {
  const text = rowText.trimEnd();
  const tail = rowText.slice(text.length);
  const valid = (candidate: string) => {
    const row = parseObject(candidate);
    return (
      row !== undefined &&
      (typeof row.prompt !== 'string' || !row.prompt.trimStart().startsWith('{') || parseObject(row.prompt) !== undefined)
    );
  };
  if (valid(text)) return undefined;
  // Outer object unclosed; or the prompt's inner object unclosed (before the string's closing quote); or both.
  const candidates = [`${text}}`, `${text}"}`, text.replace(/"\s*}$/, '}"}'), `${text.replace(/"$/, '')}}"}`];
  const fixed = candidates.find((c) => c !== text && valid(c));
  return fixed === undefined ? undefined : fixed + tail;
}
