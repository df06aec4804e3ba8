import { csvCell } from '../text/csv';
import type { MetricPoint } from './mlflow';

/** One step of a run: `{step, <key>: value}` like the SDK's per-step table; a key not logged at that step is absent. */
export type StepRow = { step: number } & Record<string, number>;

/** The column of a metric key in a step row: a metric named `step` cannot overwrite the step itself. */
export function columnOf(key: string): string {
  return key === 'step' ? 'step (metric)' : key;
}

/** Metric histories joined by step, steps ascending; when a key has several points at one step the last one wins. */
export function stepRows(series: Record<string, readonly MetricPoint[]>, keys: readonly string[] = Object.keys(series)): StepRow[] {
  const rows = new Map<number, StepRow>();
  for (const key of keys) {
    for (const point of series[key] ?? []) {
      let row = rows.get(point.step);
      if (!row) rows.set(point.step, (row = { step: point.step } as StepRow));
      // Defined, not assigned: a metric named `__proto__` stays a value instead of replacing the row's prototype.
      Object.defineProperty(row, columnOf(key), { value: point.value, enumerable: true, writable: true, configurable: true });
    }
  }
  return [...rows.values()].sort((a, b) => a.step - b.step);
}

/** `step,<key>,…` then one line per step; empty cells where a key has no value at that step. */
export function stepRowsCsv(rows: readonly StepRow[], keys: readonly string[]): string {
  const lines = [['step', ...keys.map(columnOf)].map(csvCell).join(',')];
  for (const row of rows) lines.push([row.step, ...keys.map((k) => row[columnOf(k)])].map(csvCell).join(','));
  return `${lines.join('\n')}\n`;
}

/** Keys in the order a person scans them: the sample's headline metrics first, then the rest alphabetically. */
export function orderedKeys(keys: Iterable<string>): string[] {
  const headline = [
    'rollout/reward/mean',
    'val/reward/mean',
    'val/reward/pass_at_1',
    'eval/reward/mean',
    'eval/reward/pass_at_1',
    'rollout/turns/mean',
    'training/total_tokens',
    'timing_s/step',
  ];
  const all = [...new Set(keys)];
  return [...headline.filter((k) => all.includes(k)), ...all.filter((k) => !headline.includes(k)).sort()];
}
