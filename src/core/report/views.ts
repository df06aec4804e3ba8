import type { HealthReport } from '../health/findings';
import type { JobCurves } from '../metrics/curves';
import { signalView, type SignalCheckShown } from '../signal/reportView';
import type { Transcript } from '../transcript/model';
import { buildReport, type ReportCharts, type ReportModel } from './model';

// What the metrics view and the signal report export (Export Report…): the same model `mtrl report` and the board write.

/** A view's rollouts as read for its report, or why they could not be. */
export type ViewRollouts = { rollouts: readonly Transcript[]; source: string; partial?: string } | { problem: string };

export interface MetricsExport {
  /** The jobs the view shows, overlaid when several. */
  curves: JobCurves[];
  /** The view's moving-average window and the charts added by key. */
  charts: ReportCharts;
  /** The health check of the one job shown (its findings are also marked on the curves). */
  health?: HealthReport;
  /** The one job's rollouts; none when several jobs are overlaid. */
  rollouts?: ViewRollouts;
  madeAt: Date;
}

export interface SignalExport {
  shown: SignalCheckShown;
  /** The checked rollouts; none for a check kept without them. */
  rollouts?: ViewRollouts;
  madeAt: Date;
}

const read = (r: ViewRollouts | undefined) => (r && 'rollouts' in r ? r : undefined);
const problem = (r: ViewRollouts | undefined) => (r && 'problem' in r ? [`No rollouts: ${r.problem}`] : []);

/** The metrics view as a report: its curves and findings as drawn, the one job's rollouts when it has them. */
export function metricsReport(view: MetricsExport): ReportModel {
  const names = view.curves.map((c) => c.job.name).join(', ');
  const rollouts = read(view.rollouts);
  const overlaid =
    view.curves.length > 1 && !view.rollouts
      ? [`No rollouts: the metrics view overlays ${view.curves.length} jobs, and a report's board shows one job's.`]
      : [];
  return buildReport({
    rollouts: rollouts?.rollouts ?? [],
    source: rollouts ? `the metrics view of ${names}; rollouts from ${rollouts.source}` : `the metrics view of ${names}`,
    madeAt: view.madeAt,
    job: names,
    partial: rollouts?.partial,
    curves: view.curves,
    charts: view.charts,
    health: view.health,
    notes: [...problem(view.rollouts), ...overlaid],
  });
}

/** The learning-signal report as a report: the check in its words, then its rollouts on the board when they read. */
export function signalCheckReport(view: SignalExport): ReportModel {
  const rollouts = read(view.rollouts);
  const kept = view.rollouts ? [] : ['No rollouts: this check kept only its report.'];
  return buildReport({
    rollouts: rollouts?.rollouts ?? [],
    source: rollouts ? `the learning-signal check of ${rollouts.source}` : `the learning-signal check of ${view.shown.title}`,
    madeAt: view.madeAt,
    partial: rollouts?.partial,
    signal: signalView(view.shown),
    notes: [...problem(view.rollouts), ...kept],
  });
}
