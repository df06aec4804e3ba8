/**
 * The smallest and largest of the values (and of `include`, e.g. a zero every axis shows), in one pass: spreading a long
 * list into Math.min/Math.max overflows the call stack past about 100,000 values. Empty without `include`: ±Infinity.
 */
export function extent(values: Iterable<number>, include?: number): { min: number; max: number } {
  let min = include ?? Infinity;
  let max = include ?? -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}
