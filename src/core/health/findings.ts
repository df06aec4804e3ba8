import type { MetricPoint } from '../metrics/mlflow';
import type { ScanResult } from '../scan/types';
import type { HealthThresholds } from './thresholds';

/** The ways a run goes wrong that its curves show. */
export const HEALTH_KINDS = ['truncation', 'no-signal', 'collapse', 'overfitting', 'failing-rollouts', 'stalled'] as const;
export type HealthKind = (typeof HEALTH_KINDS)[number];
/** A curve check's kind, or `rising-scan` (scanRising.ts): a scan kind rising over the job's rollouts. */
export type HealthFindingKind = HealthKind | 'rising-scan';

/** A warning still holds at the latest step; info held earlier and stopped (worth knowing next time, nothing to act on now). */
export type HealthSeverity = 'warning' | 'info';

/** One way the run went wrong, where it started, and what to do. */
export interface HealthFinding {
  kind: HealthFindingKind;
  severity: HealthSeverity;
  /** The first step where the condition held (overfitting: the first validation point below the best). */
  step: number;
  /** The metric that shows it. */
  metric: string;
  /** The values that show it, step by step (a few). */
  values: { step: number; value: number }[];
  /** One sentence in the user's words. */
  sentence: string;
  action: string;
  /** The threshold crossed: its setting, its value, and what it means here. */
  threshold: { setting: `mtrl.health.${keyof HealthThresholds}` | 'mtrl.scan.thresholds'; value: number; text: string };
}

/** What could not be checked, and why (a key the run does not log, too few steps, a job that is not running). */
export interface NotChecked {
  kind: HealthKind;
  reason: string;
}

export interface HealthReport {
  /** Training steps logged (an evaluation: 1 once it has results). */
  steps: number;
  findings: HealthFinding[];
  notChecked: NotChecked[];
  /** Metric points left out because a value or step broke its rule (the first named). */
  refused?: string;
}

/** What the checks read of a job: its metric histories and the few facts of its config and status they need. */
export interface HealthInput {
  category: 'AgentRFT' | 'AgentRFTEvaluation';
  /** Histories of the keys loaded (HEALTH_KEYS the run has). */
  series: Readonly<Record<string, readonly MetricPoint[]>>;
  hyperParameters: Readonly<Record<string, string>>;
  /** The job is in progress (stalled is checked only then). */
  running: boolean;
  /** The planned steps (ProgressInfo), when known: a job past its last step is uploading, not stalled. */
  totalSteps?: number;
  /** Epoch ms of the check. */
  now: number;
  /** Points left out of `series` because they broke a number rule (admittedSeries). */
  refused?: string;
  /** The scan of the job's rollouts so far, when the caller read them (the watch, for a running job). */
  scan?: ScanResult;
}
