import { differenceInterval, excludesZero, wilsonInterval, type Interval } from './interval';

/** One evaluation's outcome, from its `eval/*` metrics (EvaluationMetrics or the MLflow run). */
export interface EvaluationResult {
  job: string;
  passAt1: number;
  /** Rollouts solved and played: the interval's counts. */
  succeeded: number;
  rollouts: number;
  interval: Interval;
  meanReward?: number;
  /** pass@k for each k the run logged (k ≤ its group size). */
  passAtK: { k: number; value: number }[];
  tokens?: number;
  cost?: number;
}

export interface Delta {
  job: string;
  baseline: string;
  delta: number;
  interval: Interval;
  /** The interval excludes zero: more than noise at 95 %. */
  significant: boolean;
}

const num = (metrics: Record<string, number>, ...names: string[]) =>
  names.map((n) => metrics[n]).find((v) => typeof v === 'number' && Number.isFinite(v));

/**
 * Reads pass@1 and its counts from an evaluation's metrics. The count of rollouts is succeeded + failed rollouts, else
 * `eval/num_trajectories`, else prompts × rollouts per prompt; solved rollouts are `eval/reward/succeeded_rollouts`, else pass@1 × rollouts. Undefined when pass@1 or the count is missing.
 */
export function evaluationResult(
  job: string,
  metrics: Record<string, number>,
  extra: { tokens?: number; cost?: number } = {},
): EvaluationResult | undefined {
  const passAt1 = num(metrics, 'eval/reward/pass_at_1');
  const prompts = num(metrics, 'eval/reward/num_prompts');
  const perPrompt = num(metrics, 'eval/reward/rollouts_per_prompt');
  const succeededCount = num(metrics, 'eval/reward/succeeded_rollouts');
  const failedCount = num(metrics, 'eval/reward/failed_rollouts');
  // What the service counted: succeeded + failed rollouts, else the trajectories, else prompts × rollouts per prompt.
  const rollouts =
    (succeededCount !== undefined && failedCount !== undefined ? succeededCount + failedCount : undefined) ??
    num(metrics, 'eval/num_trajectories', 'eval/reward/num_rollouts') ??
    (prompts !== undefined && perPrompt !== undefined ? prompts * perPrompt : undefined);
  if (passAt1 === undefined || rollouts === undefined || rollouts <= 0) return undefined;
  const succeeded = Math.min(rollouts, Math.max(0, Math.round(succeededCount ?? passAt1 * rollouts)));
  const passAtK = Object.entries(metrics)
    .map(([name, value]) => ({ k: Number(/^eval\/reward\/pass_at_(\d+)$/.exec(name)?.[1]), value }))
    .filter((p) => Number.isInteger(p.k) && p.k > 0)
    .sort((a, b) => a.k - b.k);
  return {
    job,
    passAt1,
    succeeded,
    rollouts,
    interval: wilsonInterval(succeeded, rollouts),
    meanReward: num(metrics, 'eval/reward/mean'),
    passAtK,
    ...extra,
  };
}

/** Each result against the baseline: the difference of pass@1 with Newcombe's interval. */
export function deltasAgainst(baseline: EvaluationResult, results: readonly EvaluationResult[]): Delta[] {
  return results
    .filter((r) => r.job !== baseline.job)
    .map((r) => {
      const interval = differenceInterval(
        { successes: r.succeeded, trials: r.rollouts },
        { successes: baseline.succeeded, trials: baseline.rollouts },
      );
      return {
        job: r.job,
        baseline: baseline.job,
        delta: r.succeeded / r.rollouts - baseline.succeeded / baseline.rollouts,
        interval,
        significant: excludesZero(interval),
      };
    });
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const signedPct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;
export const intervalText = ([lo, hi]: Interval, signed = false) =>
  signed ? `[${signedPct(lo)}, ${signedPct(hi)}]` : `[${pct(lo)}, ${pct(hi)}]`;

/** A Markdown table for a write-up: one row per job, then the deltas. */
export function comparisonMarkdown(results: readonly EvaluationResult[], deltas: readonly Delta[]): string {
  const lines = ['| job | pass@1 | 95 % interval | mean reward | rollouts | tokens | cost |', '|---|---:|---|---:|---:|---:|---:|'];
  for (const r of results) {
    lines.push(
      `| ${r.job} | ${pct(r.passAt1)} | ${intervalText(r.interval)} | ${r.meanReward?.toFixed(3) ?? '–'} | ${r.rollouts} | ${r.tokens?.toLocaleString('en-US') ?? '–'} | ${r.cost === undefined ? '–' : `$${r.cost.toFixed(2)}`} |`,
    );
  }
  if (deltas.length) {
    lines.push('', '| job | vs | Δ pass@1 (points) | 95 % interval | more than noise |', '|---|---|---:|---|---|');
    for (const d of deltas)
      lines.push(
        `| ${d.job} | ${d.baseline} | ${signedPct(d.delta)} | ${intervalText(d.interval, true)} | ${d.significant ? 'yes' : 'no'} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}

const csvCell = (value: string | number | undefined) => {
  const text = value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The same figures as CSV, one row per job with its delta against the baseline when it has one. */
export function comparisonCsv(results: readonly EvaluationResult[], deltas: readonly Delta[]): string {
  const rows = [
    [
      'job',
      'pass_at_1',
      'low',
      'high',
      'succeeded',
      'rollouts',
      'mean_reward',
      'tokens',
      'cost',
      'baseline',
      'delta',
      'delta_low',
      'delta_high',
    ],
  ];
  for (const r of results) {
    const d = deltas.find((x) => x.job === r.job);
    rows.push(
      [
        r.job,
        r.passAt1,
        r.interval[0],
        r.interval[1],
        r.succeeded,
        r.rollouts,
        r.meanReward,
        r.tokens,
        r.cost,
        d?.baseline,
        d?.delta,
        d?.interval[0],
        d?.interval[1],
      ].map(csvCell),
    );
  }
  return `${rows.map((row) => row.join(',')).join('\n')}\n`;
}
