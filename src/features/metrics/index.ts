import * as vscode from 'vscode';
import { categoryLabel, JOB_CATEGORIES } from '../../core/jobs/status';
import { jobsIn } from '../../services/jobs/lookup';
import { METRICS_VIEW, type MetricsJob, type PersistedMetrics } from '../../shared/metrics';
import { openViewPanel, restoreViewPanels } from '../../webview-kit/panel';
import type { Services } from '../services';
import type { TestProbes } from '../testHooks';
import type { MetricsPanel } from './panel';
import { jobOf, restoredMetrics } from './restore';

/** The training metrics view: `mtrl.showMetrics` from a job node, its tooltip or the palette (several jobs overlaid). */
export function register(services: Services): Pick<TestProbes, 'metricsView'> {
  let loaded: typeof MetricsPanel | undefined;
  /** The panel and what it reads (MLflow), loaded on first use: the build maps './panel' to dist/metrics.js. */
  const Panel = (): typeof MetricsPanel => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded ??= (require('./panel') as typeof import('./panel')).MetricsPanel;
    return loaded;
  };
  const pickJobs = async (many: boolean): Promise<MetricsJob[]> => {
    const region = services.aws.current.region;
    const items = (async () => {
      try {
        const found: (vscode.QuickPickItem & { job: MetricsJob })[] = [];
        for (const category of JOB_CATEGORIES) {
          let n = 0;
          for await (const s of jobsIn(services.aws, region, {
            JobCategory: category,
            SortBy: 'CreationTime',
            SortOrder: 'Descending',
            MaxResults: 50,
          })) {
            found.push({
              label: s.JobName ?? '',
              description: `${categoryLabel(category)} · ${s.JobStatus ?? ''}`,
              job: { name: s.JobName ?? '', category, region },
            });
            if (++n >= 50) break;
          }
        }
        return found;
      } catch (error) {
        void vscode.window.showErrorMessage(services.explain(error, 'Listing jobs', region));
        return [];
      }
    })();
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: many,
      title: many ? 'Show Metrics: pick one or more jobs to overlay' : 'Add a job to the metrics view',
      matchOnDescription: true,
    });
    return (Array.isArray(picked) ? picked : picked ? [picked] : []).map((p) => p.job);
  };

  const pickOne = async () => (await pickJobs(false))[0];

  /** `selection`: the Jobs view's selected nodes when the menu is used on several (an LR sweep): overlaid. */
  const showMetrics = async (arg?: unknown, selection?: unknown): Promise<void> => {
    const region = services.aws.current.region;
    const given = (Array.isArray(selection) && selection.length > 1 ? selection : arg === undefined ? [] : [arg]).map((a) =>
      jobOf(a, region),
    );
    if (given.some((j) => !j))
      return void vscode.window.showErrorMessage(
        'MTRL: Show Metrics takes a job from the Jobs view, a job ARN, or nothing (then it asks).',
      );
    const jobs = given.length ? (given as MetricsJob[]) : await pickJobs(true);
    if (!jobs.length) return;
    const open = Panel().current;
    if (open && given.length && jobs.every((j) => open.jobNames.includes(j.name))) return open.panel.reveal();
    const panel = openViewPanel(METRICS_VIEW, `Metrics: ${jobs.map((j) => j.name).join(', ')}`, {
      extensionUri: services.context.extensionUri,
    });
    new (Panel())(panel, services, jobs, pickOne);
  };

  services.context.subscriptions.push(
    vscode.commands.registerCommand('mtrl.showMetrics', showMetrics),
    vscode.commands.registerCommand('mtrl.exportMetricsReport', (given?: unknown) =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the report writer loads on first export; the view is passed in (that bundle has no panel of its own)
      (require('./exportReport') as typeof import('./exportReport')).exportMetricsReport(services, loaded?.current, given),
    ),
    restoreViewPanels<Partial<PersistedMetrics>>(METRICS_VIEW, (panel, state) => {
      const restored = restoredMetrics(state, services.aws.current.region);
      if (!restored) return panel.dispose();
      new (Panel())(panel, services, restored.jobs, pickOne, { window: restored.window, extraKeys: restored.extraKeys });
    }),
    { dispose: () => loaded?.current?.panel.dispose() },
  );
  return {
    // For tests: what the open view drew, per chart.
    metricsView: () => {
      const current = loaded?.current;
      return current ? { jobs: current.jobNames, drawn: current.drawn } : undefined;
    },
  };
}
