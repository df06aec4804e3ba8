/** How a reward and its components read: in the lens, the scores view, `mtrl reward` and the board. */

/** A score as the lens shows it: two decimals, a real minus sign. */
export function score(value: number): string {
  const text = Math.abs(value).toFixed(2);
  return value < 0 && text !== '0.00' ? `\u2212${text}` : text;
}

// Components that add up to the total within this are shown as a sum (the two-decimal text is not the check).
const SUM_TOLERANCE = 1e-6;

/**
 * A total's components after it: `= outcome −0.50 + shaping 1.80` when they add up to it, else `(outcome 1.25 · shaping
 * 0.46)`: the parts a reward named are not always the terms of its sum. Empty without components.
 */
export function componentsText(total: number, components: Readonly<Record<string, number>> | undefined): string {
  const parts = Object.entries(components ?? {});
  if (!parts.length) return '';
  const sum = parts.reduce((s, [, v]) => s + v, 0);
  const named = parts.map(([name, v]) => `${name} ${score(v)}`);
  return Math.abs(sum - total) <= SUM_TOLERANCE ? `= ${named.join(' + ')}` : `(${named.join(' \u00b7 ')})`;
}

/** Components as `--json` gives them: name → number rounded to 4 decimals. */
export function roundedComponents(components: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(components).map(([name, v]) => [name, Math.round(v * 1e4) / 1e4]));
}
