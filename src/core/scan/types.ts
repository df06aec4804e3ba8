/** The ways any agent's rollouts go wrong that the generic scanners find in transcripts. */
export const GENERIC_KINDS = [
  'auth-error',
  'error-status',
  'invalid-tool',
  'tool-error',
  'tool-call-as-text',
  'repeated-call',
  'truncated',
  'no-final-answer',
  'refusal',
] as const;
export type GenericKind = (typeof GENERIC_KINDS)[number];

/** One thing a scanner saw in one rollout: its kind, the 0-based turn where it shows (when one does), and the text that shows it. */
export interface ScanMark {
  kind: string;
  turn?: number;
  evidence?: string;
}

/** A rollout the scan marked, and where: what a finding's example shows. */
export interface ScanExample {
  id: string;
  turn?: number;
  evidence?: string;
}

/** One step's share of marked rollouts. */
export interface ScanStep {
  step: number;
  rollouts: number;
  marked: number;
  share: number;
}

/** One kind found over the scanned rollouts. */
export interface ScanFinding {
  kind: string;
  /** Rollouts marked with it. */
  rollouts: number;
  /** Of all rollouts scanned (0–1). */
  share: number;
  /** Per training step, oldest first (empty when no rollout names its step). */
  steps: ScanStep[];
  /** The step where the share began rising and stayed above 0 (absent: from the first step, or steps unknown). */
  began?: number;
  /** Where it starts and grows, in words: `0 % until step 30, 14 % at step 60`. */
  trend: string;
  /** Mean GRPO advantage of the marked rollouts within their groups; null when none has one. */
  meanAdvantage: number | null;
  ids: string[];
  example: ScanExample;
  /** The share past which the scan fails (`mtrl.scan.thresholds`), and whether this finding is past it. */
  threshold: number;
  above: boolean;
}

/** What a scan found: a plain serialisable object (the CLI's `--json`, the board, a report). */
export interface ScanResult {
  /** Rollouts scanned. */
  scanned: number;
  /** Kinds with at least one marked rollout, the ones past their threshold first, then by count. */
  findings: ScanFinding[];
}
