// A job's curves as the metrics view and the shared report draw them.

export interface MetricsJob {
  name: string;
  category: 'AgentRFT' | 'AgentRFTEvaluation';
  region: string;
}

/** One job's curves: steps and values per key, ready to draw. */
export interface JobCurves {
  job: MetricsJob;
  runId?: string;
  /** MLflow run status (RUNNING, FINISHED…) or the job status before the run is found. */
  status?: string;
  running: boolean;
  /** Every key of the run (from `runs/get`), for the picker. */
  keys: string[];
  series: Record<string, { steps: number[]; values: number[] }>;
  /** "ETA 2h 10m (7m 30s a step) · projected $338.50" while training runs. */
  forecast?: string;
  /** How validation decodes, written beside its curves. */
  validationSettings?: string;
  /** Why there are no curves, as a sentence naming the fix. */
  problem?: string;
  /** Run health findings: each is marked at its step on the chart of its metric, with its sentence. */
  findings?: CurveFinding[];
}

/** A health finding as the curves mark it. */
export interface CurveFinding {
  kind: string;
  severity: 'warning' | 'info';
  step: number;
  metric: string;
  sentence: string;
}

/** The fixed charts: title, keys (one line per job and key) and whether values are fractions shown as %. */
export const FIXED_CHARTS: readonly { id: string; title: string; keys: string[]; percent?: boolean }[] = [
  { id: 'reward', title: 'Reward per step', keys: ['rollout/reward/mean'] },
  { id: 'validation', title: 'Validation', keys: ['val/reward/mean', 'val/reward/pass_at_1'] },
  { id: 'turns', title: 'Turns per rollout', keys: ['rollout/turns/mean'] },
  { id: 'tokens', title: 'Tokens per step', keys: ['training/total_tokens'] },
  { id: 'time', title: 'Step time (s)', keys: ['timing_s/step'] },
];

/** Every key the fixed charts draw: what a report of a job's curves loads. */
export const FIXED_CHART_KEYS: readonly string[] = FIXED_CHARTS.flatMap((c) => c.keys);
