import { csvCell } from '../text/csv';
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
  const base = baseline && columns.includes(baseline) ? baseline : (columns.find((c) => /base/i.test(c)) ?? columns[0]);
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
  for (const key of ['temperature', 'sampling_top_p', 'sampling_max_tokens', 'eval_group_size'])
    if (hyperparameters[key] !== undefined) out[key] = hyperparameters[key];
  return out;
}

/** Labels rows by only the settings that vary among them, so a table of four temperatures reads "temperature=0.6", not every default. */
export function rowLabels(settings: readonly Record<string, string>[]): string[] {
  const keys = [...new Set(settings.flatMap((s) => Object.keys(s)))].filter((k) => new Set(settings.map((s) => s[k])).size > 1);
  return settings.map(
    (s) => keys.map((k) => (k === 'runtime' ? s[k] : `${k.replace(/^sampling_/, '')}=${s[k] ?? '–'}`)).join(' ') || 'default settings',
  );
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;
const range = ([lo, hi]: [number, number], f: (x: number) => string) => `${f(lo)} – ${f(hi)}`;

/** The grid as Markdown, as people paste it into a write-up: pass@1 [interval] per cell, Δ per adapter with its interval. */
export function gridMarkdown(grid: ComparisonGrid): string {
  const others = grid.columns.filter((c) => c !== grid.baseline);
  const header = ['settings', ...grid.columns, ...others.map((c) => `Δ ${c}`)];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const row of grid.rows) {
    const cells = grid.columns.map((c) => {
      const r = grid.cell(row, c);
      return r ? `${pct(r.passAt1)} (${range(r.interval, pct)})` : '–';
    });
    const deltas = others.map((c) => {
      const d = grid.deltas.find((x) => x.row === row && x.column === c)?.delta;
      return d ? `${points(d.delta)} (${range(d.interval, points)})${d.significant ? ' *' : ''}` : '–';
    });
    lines.push(`| ${[row, ...cells, ...deltas].join(' | ')} |`);
  }
  return `${lines.join('\n')}\n\npass@1 with 95 % Wilson intervals; Δ in points with Newcombe's 95 % interval, * where it excludes zero.\n`;
}

/** One CSV row per cell: settings, model, pass@1 and interval, counts, reward, tokens, cost, and the delta against the baseline. */
export function gridCsv(grid: ComparisonGrid): string {
  const lines = ['settings,model,pass_at_1,low,high,succeeded,rollouts,mean_reward,tokens,cost,delta,delta_low,delta_high,significant'];
  for (const row of grid.rows) {
    for (const column of grid.columns) {
      const r = grid.cell(row, column);
      if (!r) continue;
      const d = grid.deltas.find((x) => x.row === row && x.column === column)?.delta;
      lines.push(
        [
          row,
          column,
          r.passAt1,
          ...r.interval,
          r.succeeded,
          r.rollouts,
          r.meanReward,
          r.tokens,
          r.cost,
          d?.delta,
          d?.interval[0],
          d?.interval[1],
          d?.significant,
        ]
          .map(csvCell)
          .join(','),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
