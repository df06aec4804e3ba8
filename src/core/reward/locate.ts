/** 0-based line of the function or class a scenario file scores, from the text alone; undefined when absent. */
export function findScoredDefinition(
  text: string,
  spec: { form: 'function'; function: string } | { form: 'class'; class: string },
): number | undefined {
  const name = spec.form === 'function' ? spec.function : spec.class;
  const pattern = spec.form === 'function' ? new RegExp(`^(?:async\\s+)?def\\s+${name}\\s*\\(`) : new RegExp(`^class\\s+${name}\\b`);
  const line = text.split(/\r?\n/).findIndex((l) => pattern.test(l));
  return line >= 0 ? line : undefined;
}

/** Character offset of the key a problem path names (`scenarios.ideal.tool_calls.0` → `"tool_calls"`), else of `"ideal"`, else 0. */
export function offsetOfPath(text: string, path: string): number {
  const keys = path.split('.').filter((k) => k && !/^\d+$/.test(k));
  let from = 0;
  let found = 0;
  for (const key of keys) {
    const at = text.indexOf(JSON.stringify(key), from);
    if (at < 0) break;
    found = from = at;
  }
  return found;
}
