/** A two-sided confidence interval, as proportions (0–1 for a rate, −1–1 for a difference). */
export type Interval = [low: number, high: number];

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/**
 * Wilson score interval for `successes` out of `trials`: stays inside [0, 1] and keeps its coverage near 0 and 1,
 * where the plain p ± z·se interval collapses (0 of 128 solved is not "exactly 0 %").
 */
export function wilsonInterval(successes: number, trials: number, z = Z95): Interval {
  if (!(trials > 0) || successes < 0 || successes > trials)
    throw new RangeError(`${successes} successes out of ${trials} trials is not a proportion.`);
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const center = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

/**
 * Interval for the difference of two proportions (a − b), Newcombe's hybrid score method (his method 10), built from the two
 * Wilson intervals. It treats the samples as independent: for the same words played by two models it is conservative.
 */
export function differenceInterval(a: { successes: number; trials: number }, b: { successes: number; trials: number }, z = Z95): Interval {
  const pa = a.successes / a.trials;
  const pb = b.successes / b.trials;
  const [la, ua] = wilsonInterval(a.successes, a.trials, z);
  const [lb, ub] = wilsonInterval(b.successes, b.trials, z);
  const d = pa - pb;
  const below = Math.sqrt((pa - la) ** 2 + (ub - pb) ** 2);
  const above = Math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2);
  return [Math.max(-1, d - below), Math.min(1, d + above)];
}

/** Whether an interval of a difference lies entirely on one side of zero. */
export function excludesZero([low, high]: Interval): boolean {
  return low > 0 || high < 0;
}
