/** A trailing moving average over the last `window` values (fewer at the start), like the sample's `make_plots.py`; nulls are gaps it skips. */
export function movingAverage(values: readonly (number | null)[], window: number): (number | null)[] {
  const size = Math.max(1, Math.floor(window));
  const out: (number | null)[] = [];
  const kept: number[] = [];
  let sum = 0;
  for (const value of values) {
    if (value === null || !Number.isFinite(value)) {
      out.push(kept.length ? sum / kept.length : null);
      continue;
    }
    kept.push(value);
    sum += value;
    if (kept.length > size) sum -= kept.shift() as number;
    out.push(sum / kept.length);
  }
  return out;
}
