import type { MetricPoint } from './mlflow';

/** One step of a run: `{step, <key>: value}` like the SDK's per-step table; a key not logged at that step is absent. */
export type StepRow = { step: number } & Record<string, number>;

/** Metric histories joined by step, steps ascending; when a key has several points at one step the last one wins. */
export function stepRows(series: Record<string, readonly MetricPoint[]>, keys: readonly string[] = Object.keys(series)): StepRow[] {
  const rows = new Map<number, StepRow>();
  for (const key of keys) {
    for (const point of series[key] ?? []) {
      let row = rows.get(point.step);
      if (!row) rows.set(point.step, (row = { step: point.step } as StepRow));
      row[key] = point.value;
    }
  }
  return [...rows.values()].sort((a, b) => a.step - b.step);
}

function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `step,<key>,…` then one line per step; empty cells where a key has no value at that step. */
export function stepRowsCsv(rows: readonly StepRow[], keys: readonly string[]): string {
  const lines = [['step', ...keys].map(csvField).join(',')];
  for (const row of rows) lines.push([String(row.step), ...keys.map((k) => (row[k] === undefined ? '' : String(row[k])))].join(','));
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
