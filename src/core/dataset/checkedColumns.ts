// Apart from rows.ts so the Parquet worker, which needs only this rule, does not load the checks.

/**
 * The columns `RowChecker.check` reads, from a file's column names in order: `prompt` with `answer` and `id` beside it
 * (a flat row), or without `prompt` the first key of the row, which the service passes instead; all when there are none.
 */
export function columnsChecked(names: string[]): string[] | undefined {
  if (!names.length) return undefined;
  if (names.includes('prompt')) return ['prompt', 'answer', 'id'].filter((n) => names.includes(n));
  // The first key as a row object orders it: integer-like names come before the others.
  return [Object.keys(Object.fromEntries(names.map((n) => [n, true])))[0]];
}
