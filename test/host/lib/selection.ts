// Which host tests a run selects: MTRL_HOST_GREP names one or several title parts, separated by `|`.

/** The title parts a grep names; empty selects every test. */
function parts(grep: string): string[] {
  return grep
    .split('|')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Whether a test's full title contains any part the grep names (every test when it names none). */
export function selects(grep: string, title: string): boolean {
  const named = parts(grep);
  return named.length === 0 || named.some((part) => title.includes(part));
}

/** The same selection as mocha's grep: one expression whose alternatives are the parts, taken literally. */
export function mochaGrep(grep: string): RegExp | undefined {
  const named = parts(grep);
  if (named.length === 0) return undefined;
  return new RegExp(named.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
}
