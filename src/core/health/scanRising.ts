import { advantageText } from '../scan/report';
import type { ScanFinding, ScanResult } from '../scan/types';
import type { HealthFinding } from './findings';
import { percentText } from './series';
import type { HealthThresholds } from './thresholds';

/** The kind of finding a rising scan kind is: apart from the curve checks, it reads the job's rollouts, not its metrics. */
const RISING_SCAN = 'rising-scan';

/** A kind at 0 % until a step and above 0 % at every step since, for `steps` steps or more, past its threshold at the latest. */
function isRising(f: ScanFinding, t: HealthThresholds): boolean {
  if (f.began === undefined) return false;
  const since = f.steps.filter((s) => s.step >= f.began!);
  const latest = f.steps[f.steps.length - 1];
  return since.length >= t.steps && latest.share > f.threshold;
}

/**
 * The scan kinds whose share of a running job's rollouts has risen from 0 over its steps, as one finding (the watch
 * notifies once per job and kind of finding): `tool-call-as-text: 0 % until step 30, 14 % at step 60`.
 */
export function risingScan(scan: ScanResult, t: HealthThresholds): HealthFinding | undefined {
  const rising = scan.findings.filter((f) => isRising(f, t)).sort((a, b) => a.began! - b.began!);
  if (!rising.length) return undefined;
  const first = rising[0];
  const kinds = rising.map((f) => `${f.kind}: ${f.trend}, ${advantageText(f.meanAdvantage)}`);
  return {
    kind: RISING_SCAN,
    severity: 'warning',
    step: first.began!,
    metric: `scan/${first.kind}`,
    // From the last step at 0 % on: the values show where it began.
    values: first.steps
      .slice(Math.max(0, first.steps.findIndex((s) => s.step === first.began) - 1))
      .map((s) => ({ step: s.step, value: s.share })),
    sentence: `The rollouts go wrong more and more as the job trains: ${kinds.join('; ')}.`,
    action: `Open the job's rollouts on the board and pick the ${first.kind} chip to read the rollouts it marks (docs/scan.md says what each kind means and what fixes it); a kind that began as the learning rate rose calls for a lower one.`,
    threshold: {
      setting: 'mtrl.scan.thresholds',
      value: first.threshold,
      text: `a kind's share of a step's rollouts at 0 % until a step, above 0 % for ${t.steps} steps or more since (mtrl.health.steps), and above ${percentText(first.threshold)} at the latest step`,
    },
  };
}
