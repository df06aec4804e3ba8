/**
 * An id cut in the middle to at most `max` characters, e.g. `wordle-gpt…grpo-lr-sweep`: job names, ARNs and rollout ids
 * differ at both ends (a family prefix, a run suffix), so both are kept. Show the whole id in a tooltip beside it.
 */
export function shortenMiddle(id: string, max: number): string {
  const chars = Array.from(id);
  if (chars.length <= max) return id;
  const keep = Math.max(0, max - 1);
  const head = Math.ceil(keep / 2);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (keep - head)).join('')}`;
}

/**
 * A name cut to at most `max` characters between whole words (split after `-`, `_`, `.` or a space), e.g.
 * `fine-tuned…eval`: the first words and as many last words as fit, never part of a word. A first word longer
 * than `max` is kept whole (`word…`): a cut word reads as another word. Show the whole name in a tooltip beside it.
 */
export function shortenAtWords(name: string, max: number): string {
  const length = (text: string) => Array.from(text).length;
  if (length(name) <= max) return name;
  const words = name.match(/[^-_. ]+[-_. ]*|[-_. ]+/g) ?? [name];
  const joined = (from: number, to: number) => words.slice(from, to).join('');
  let best = `${words[0].replace(/[-_. ]+$/, '')}…`;
  for (let head = 1; head < words.length; head++) {
    const start = joined(0, head).replace(/[-_. ]+$/, '');
    for (let tail = words.length - head; tail >= 0; tail--) {
      const candidate = `${start}…${joined(words.length - tail, words.length)}`;
      // More characters shown wins; on a tie, more head words (the head tells what the job is).
      if (length(candidate) <= max && length(candidate) >= length(best)) best = candidate;
    }
  }
  return best;
}
