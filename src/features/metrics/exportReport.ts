import * as vscode from 'vscode';
import { metricsReport, type ViewRollouts } from '../../core/report/views';
import { readReportRollouts } from '../../services/rollouts/forReport';
import { withRolloutsProgress, writeReport } from '../report/writeReport';
import type { Services } from '../services';
import type { MetricsPanel } from './panel';

/** Export Report… on the metrics view: its curves and findings as drawn, and the one job's rollouts when it has them. */
export async function exportMetricsReport(
  services: Services,
  view: MetricsPanel | undefined,
  given?: unknown,
): Promise<vscode.Uri | undefined> {
  if (!view) {
    void vscode.window.showInformationMessage('MTRL: open the metrics view first (Show Metrics): Export Report writes what it shows.');
    return undefined;
  }
  const shown = view.shown();
  // Before the first read ends the view holds the jobs' names only: a report then would have no curves.
  if (shown.loading && !shown.curves.some((c) => c.keys.length)) {
    void vscode.window.showInformationMessage('MTRL: the metrics view is still reading: export it once it shows the curves.');
    return undefined;
  }
  // An overlay of several jobs (an LR sweep) has no one board of rollouts.
  const [job, ...others] = shown.jobs;
  let rollouts: ViewRollouts | undefined;
  if (job && !others.length) {
    rollouts = await withRolloutsProgress<ViewRollouts>(
      `MTRL: reading the rollouts of ${job.name} for the report`,
      async (signal) => ({
        ...(await readReportRollouts(services.aws, { job: { jobName: job.name, category: job.category, region: job.region } }, signal)),
        source: `job ${job.name}`,
      }),
      (error) => ({ problem: services.explain(error, `Reading the rollouts of ${job.name}`, job.region) }),
    );
    if (!rollouts) return undefined;
  }
  const model = metricsReport({ curves: shown.curves, charts: shown.charts, health: shown.health, rollouts, madeAt: new Date() });
  return writeReport(services, model, shown.jobs.map((j) => j.name).join('-'), given);
}
