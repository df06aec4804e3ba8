import { deltasAgainst, type Delta, type EvaluationResult } from './compare';

/** One evaluation placed in the comparison: its row (decoding settings) and column (model). */
export interface GridCell {
  row: string;
  column: string;
  result: EvaluationResult;
}

export interface ComparisonGrid {
  rows: string[];
  columns: string[];
  /** The column the others are compared with: the base model when there is one. */
  baseline?: string;
  cell(row: string, column: string): EvaluationResult | undefined;
  /** Per row, each other column against the baseline column. */
  deltas: { row: string; column: string; delta: Delta }[];
}

/** Rows are decoding settings, columns models, in first-seen order; deltas within each row against the baseline column. */
export function comparisonGrid(cells: readonly GridCell[], baseline?: string): ComparisonGrid {
  const rows = [...new Set(cells.map((c) => c.row))];
  const columns = [...new Set(cells.map((c) => c.column))];
  const key = (row: string, column: string) => `${row}\u0000${column}`;
  const byKey = new Map(cells.map((c) => [key(c.row, c.column), c.result]));
  const base = baseline && columns.includes(baseline) ? baseline : columns.find((c) => /base/i.test(c)) ?? columns[0];
  const deltas: ComparisonGrid['deltas'] = [];
  for (const row of rows) {
    const reference = byKey.get(key(row, base));
    if (!reference) continue;
    for (const column of columns) {
      const result = column === base ? undefined : byKey.get(key(row, column));
      if (result) deltas.push({ row, column, delta: deltasAgainst(reference, [result])[0] });
    }
  }
  return { rows, columns, baseline: base, cell: (row, column) => byKey.get(key(row, column)), deltas };
}

/** The row label of an evaluation read from its document: runtime and the decoding settings that differ across a comparison. */
export function settingsOf(hyperparameters: Record<string, string>, runtime: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (runtime) out.runtime = runtime;
  for (const key of ['temperature', 'sampling_top_p', 'sampling_max_tokens', 'eval_group_size']) if (hyperparameters[key] !== undefined) out[key] = hyperparameters[key];
  return out;
}

/** Labels rows by only the settings that vary among them, so a table of four temperatures reads "temperature=0.6", not every default. */
export function rowLabels(settings: readonly Record<string, string>[]): string[] {
  const keys = [...new Set(settings.flatMap((s) => Object.keys(s)))].filter((k) => new Set(settings.map((s) => s[k])).size > 1);
  return settings.map((s) => keys.map((k) => (k === 'runtime' ? s[k] : `${k.replace(/^sampling_/, '')}=${s[k] ?? '–'}`)).join(' ') || 'default settings');
}
