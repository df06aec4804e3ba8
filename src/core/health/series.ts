import type { MetricPoint } from '../metrics/mlflow';

/** A key's points by step, ascending; when a step was logged twice the last one counts. */
export function pointsOf(series: Readonly<Record<string, readonly MetricPoint[]>>, key: string): MetricPoint[] {
  const byStep = new Map<number, MetricPoint>();
  for (const point of series[key] ?? []) byStep.set(point.step, point);
  return [...byStep.values()].sort((a, b) => a.step - b.step);
}

/** Where a condition first held for `n` points in a row: the index of the first, or -1. */
export function firstRun<T>(points: readonly T[], holds: (point: T, index: number) => boolean, n: number): number {
  let run = 0;
  for (let i = 0; i < points.length; i++) {
    run = holds(points[i], i) ? run + 1 : 0;
    if (run >= n) return i - n + 1;
  }
  return -1;
}

/** Up to `count` points from `from`, as a finding shows them. */
export function shownValues(points: readonly MetricPoint[], from: number, count = 4): { step: number; value: number }[] {
  return points.slice(from, from + count).map((p) => ({ step: p.step, value: p.value }));
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A value as a sentence shows it: integers whole, others to three significant digits. */
export function valueText(value: number): string {
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return String(Number(value.toPrecision(3)));
}

export function percentText(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** "steps 12–15" or "step 12". */
export function stepsText(points: readonly { step: number }[]): string {
  if (points.length === 1) return `step ${points[0].step}`;
  return `steps ${points[0].step}–${points[points.length - 1].step}`;
}
