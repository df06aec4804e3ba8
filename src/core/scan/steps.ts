import type { ScanStep } from './types';

/** The step where a kind began and has held since: after its last step at 0 %; undefined when it held from the first step or has gone. */
export function onsetOf(steps: readonly ScanStep[]): number | undefined {
  let lastZero = -1;
  steps.forEach((s, i) => s.marked === 0 && (lastZero = i));
  return lastZero >= 0 && lastZero < steps.length - 1 ? steps[lastZero + 1].step : undefined;
}

const percent = (share: number) => (share > 0 && share < 0.005 ? '<1 %' : `${Math.round(share * 100)} %`);

/** Where a kind starts and grows, in words: `0 % until step 30, 14 % at step 60`; empty when no rollout names its step. */
export function trendText(steps: readonly ScanStep[], began: number | undefined): string {
  if (!steps.length) return '';
  const first = steps[0];
  const last = steps[steps.length - 1];
  if (began !== undefined) return `0 % until step ${began}, ${percent(last.share)} at step ${last.step}`;
  if (steps.length === 1) return `${percent(first.share)} at step ${first.step}`;
  return `${percent(first.share)} at step ${first.step}, ${percent(last.share)} at step ${last.step}`;
}
