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
