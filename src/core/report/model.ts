import type { HealthReport } from '../health/findings';
import type { JobCurves } from '../metrics/curves';
import { factsOf, groupRollouts } from '../rollouts';
import type { ScanResult } from '../scan/types';
import type { SignalView } from '../signal/reportView';
import type { Transcript } from '../transcript/model';
import { boundRollouts, REPORT_LIMITS, type ReportLimits } from './bound';

/** Everything a shared report shows, embedded in its one HTML file and drawn there (webview/report.ts). */
export interface ReportModel {
  /** The job the report is of, when one was named. */
  job?: string;
  /** Where the rollouts came from, in words: `run.log`, `job X (its MLflow traces)`. */
  source: string;
  /** ISO time the report was made. */
  madeAt: string;
  /** The counts as the board says them: `40 rollouts · 10 groups`, of every rollout read. */
  counts: string;
  /** The rollouts the report carries (the size bound's). */
  rollouts: Transcript[];
  /** What was left out and why, one sentence each. */
  notes: string[];
  scan?: ScanResult;
  /** One job's curves, or the metrics view's overlaid jobs. */
  curves?: JobCurves[];
  /** How the metrics view drew them when exported from it: its moving-average window and the charts added by key. */
  charts?: ReportCharts;
  health?: Pick<HealthReport, 'findings' | 'notChecked'>;
  /** A learning-signal check, in the signal report's words. */
  signal?: SignalView;
}

export interface ReportCharts {
  window: number;
  extraKeys: string[];
}

export interface ReportInput {
  rollouts: readonly Transcript[];
  source: string;
  madeAt: Date;
  job?: string;
  /** Why reading stopped part-way, when it did. */
  partial?: string;
  scan?: ScanResult;
  curves?: JobCurves[];
  charts?: ReportCharts;
  health?: HealthReport;
  signal?: SignalView;
  limits?: ReportLimits;
  /** Said among the notes, after the bound's: why there are no rollouts, or what was left out of them. */
  notes?: string[];
}

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/** `40 rollouts · 10 groups`, with the step-unknown groups as the board's summary names them. */
export function reportCounts(rollouts: readonly Transcript[]): string {
  const { groups } = groupRollouts(factsOf(rollouts).facts);
  const unknown = groups.filter((g) => g.step === undefined).length;
  const stepUnknown = unknown ? ` (${unknown.toLocaleString('en')} step unknown)` : '';
  return `${plural(rollouts.length, 'rollout')} · ${plural(groups.length, 'group')}${stepUnknown}`;
}

/** The report of these rollouts and whatever else was given; counts are of every rollout, the rollouts carried are bounded. */
export function buildReport(input: ReportInput): ReportModel {
  const bound = boundRollouts(input.rollouts, input.limits ?? REPORT_LIMITS);
  const notes = input.partial ? [`Partial: reading stopped after ${plural(input.rollouts.length, 'rollout')}: ${input.partial}`] : [];
  return {
    ...(input.job ? { job: input.job } : {}),
    source: input.source,
    madeAt: input.madeAt.toISOString(),
    // A report of curves or a signal check may carry no rollouts: its header says so rather than "0 groups".
    counts: input.rollouts.length ? reportCounts(input.rollouts) : 'no rollouts',
    rollouts: bound.rollouts,
    notes: [...notes, ...bound.notes, ...(input.notes ?? [])],
    ...(input.scan ? { scan: input.scan } : {}),
    ...(input.curves?.length ? { curves: input.curves } : {}),
    ...(input.charts ? { charts: input.charts } : {}),
    ...(input.health ? { health: { findings: input.health.findings, notChecked: input.health.notChecked } } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  };
}

/** The report file's title: what a browser tab and a bookmark show. */
export function reportTitle(model: Pick<ReportModel, 'job' | 'source' | 'counts'>): string {
  return `MTRL report: ${model.job ?? model.source} (${model.counts})`;
}

/** A file name from what the report is of: `my-job-report.html`, `run-report.html`. */
export function reportFileName(label: string): string {
  const stem = label
    .replace(/^.*[\\/]/, '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${stem || 'rollouts'}-report.html`;
}
