import { Random } from '../random';

/** `k` of `count` row indices, without repeats, in dataset order: the same `next` sequence (a seeded generator) picks the same rows. */
export function sampleRowIndices(count: number, k: number, next: () => number): number[] {
  const indices = Array.from({ length: count }, (_, i) => i);
  for (let i = 0; i < Math.min(k, count); i++) {
    const j = i + Math.floor(next() * (count - i));
    [indices[i], indices[j]] = [indices[j], indices[i]];
  }
  return indices.slice(0, Math.min(k, count)).sort((a, b) => a - b);
}

/** The rows a signal check plays: `k` of them picked by the seed, the same on this machine and in the cloud. */
export function sampleRows<T>(rows: readonly T[], k: number, seed: string | number): { row: T; index: number }[] {
  const rng = new Random(`signal#${seed}`);
  return sampleRowIndices(rows.length, k, () => rng.next()).map((index) => ({ row: rows[index], index }));
}
