import type { MetricPoint } from './mlflow';

/** A decimal number as JSON or protobuf-JSON (int64 as a string) carries it; not hex, not empty, not a boolean. */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function numberOf(raw: unknown): number | undefined {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string' && DECIMAL.test(raw.trim())) return Number(raw);
  return undefined;
}

/** Points of one metric as MLflow sent them, checked: a finite value at an integer step (absent = 0, protobuf's default), else dropped and counted. */
export function checkedPoints(key: string, raw: readonly unknown[]): { points: MetricPoint[]; dropped: number } {
  const points: MetricPoint[] = [];
  let dropped = 0;
  for (const item of raw) {
    const m = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const value = numberOf(m.value);
    const step = m.step === undefined ? 0 : numberOf(m.step);
    if (value === undefined || !Number.isFinite(value) || step === undefined || !Number.isSafeInteger(step)) {
      dropped++;
      continue;
    }
    const timestamp = numberOf(m.timestamp);
    points.push({ key, value, step, timestamp: timestamp !== undefined && Number.isFinite(timestamp) ? timestamp : 0 });
  }
  return { points, dropped };
}

/** "12 malformed points dropped (not a finite number at an integer step)", or undefined when none were. */
export function droppedSentence(dropped: number): string | undefined {
  if (!dropped) return undefined;
  return `${dropped} malformed ${dropped === 1 ? 'point' : 'points'} dropped (not a finite number at an integer step).`;
}
