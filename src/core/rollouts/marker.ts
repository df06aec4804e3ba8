import type { Transcript } from '../transcript/model';

/** What marks the board's rollouts by kind as they arrive (the rollout scan, src/core/scan): a filter and a marker per row. */
export interface RolloutMarker {
  /** Scans the next rollout (its index is the count added before it). */
  add(t: Transcript): unknown;
  has(kind: string, index: number): boolean;
  kindsOf(index: number): string[];
  clear(): void;
}
