import type { Delta, EvaluationResult } from '../core/evaluation/compare';
import type { ComparisonGrid } from '../core/evaluation/grid';
import type { ViewDescriptor, ViewProtocol } from '../webview-kit/channel';

/** Typed messages between the evaluation comparison view (webview/comparison.ts) and the extension (src/features/evaluations/). */

/** A comparison grid as plain data: rows are decoding settings, columns models, deltas against the baseline column. */
export interface ComparisonState {
  /** `Sweep demo` or `Compare 2 evaluations`: the page's heading and the panel's key. */
  title: string;
  rows: string[];
  columns: string[];
  baseline?: string;
  cells: { row: string; column: string; result: EvaluationResult }[];
  deltas: { row: string; column: string; delta: Delta }[];
  /** Progress of a sweep and the evaluations left out, with why. */
  notes: string[];
}

/** What the view draws: the grid as plain data (its cells looked up once), with the notes under it. */
export function comparisonState(title: string, grid: ComparisonGrid, notes: readonly string[]): ComparisonState {
  const cells = grid.rows.flatMap((row) =>
    grid.columns.flatMap((column) => {
      const result = grid.cell(row, column);
      return result ? [{ row, column, result }] : [];
    }),
  );
  return { title, rows: grid.rows, columns: grid.columns, baseline: grid.baseline, cells, deltas: grid.deltas, notes: [...notes] };
}

/** One comparison per title (a sweep, or a selection of jobs); the editor title's Copy buttons copy the active one. */
export const COMPARISON_VIEW: ViewDescriptor = { viewType: 'mtrl.comparison', pageTitle: 'Evaluation comparison', script: 'comparison.js' };

export interface ComparisonProtocol extends ViewProtocol {
  requests: Record<never, never>;
  toPage: { state: ComparisonState };
  toHost: Record<never, never>;
}
