import { viewDeadline } from '../../services/viewDeadline';
import * as vscode from 'vscode';
import { stepRows, stepRowsCsv } from '../../core/metrics/table';
import { loadJobMetrics, MetricsUnavailable, mlflowResourceOf, type JobMetrics } from '../../services/metrics/load';
import { RunNotFound } from '../../services/metrics/load';
import { mlflowAppUrl, mlflowFailure } from '../../services/metrics/mlflowApp';
import { FIXED_CHARTS, METRICS_VIEW, type JobCurves, type MetricsJob, type MetricsProtocol, type MetricsState } from '../../shared/metrics';
import type { HostChannel } from '../../webview-kit/host';
import { showApp } from '../../webview-kit/panel';
import type { Services } from '../services';
import { curvesOf } from '../../services/metrics/curves';
import { checkHealth, HEALTH_KEYS } from '../../core/health/check';
import { healthInputOf } from '../../core/health/input';
import { healthThresholds } from '../../core/settings';
import type { HealthReport } from '../../core/health/findings';
import type { ReportCharts } from '../../core/report/model';

/** One metrics view: loads each job's run, redraws on changes, refreshes while a job runs and the view is visible. */
export class MetricsPanel implements vscode.Disposable {
  static current?: MetricsPanel;
  private state: MetricsState = { jobs: [], loading: true, window: 10, extraKeys: [] };
  private readonly loaded = new Map<string, JobMetrics>();
  /** Each job's health check as last drawn, for Export Report…. */
  private readonly health = new Map<string, HealthReport>();
  private timer?: ReturnType<typeof setTimeout>;
  private readonly channel: HostChannel<MetricsProtocol>;
  private loading?: AbortController;
  private readonly disposables: vscode.Disposable[] = [];
  /** What the page last reported drawing, per chart (read by the test hooks' probe, src/features/testHooks.ts). */
  drawn?: Record<string, number>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly services: Services,
    private jobs: MetricsJob[],
    private readonly pickJob: () => Promise<MetricsJob | undefined>,
    restored?: Pick<MetricsState, 'window' | 'extraKeys'>,
  ) {
    MetricsPanel.current = this;
    // The jobs are in the page from the start, so a reload during the first load still restores them.
    this.state = { ...this.state, ...restored, jobs: jobs.map((job) => ({ job, running: false, keys: [], series: {} })) };
    this.channel = showApp<MetricsProtocol>(panel, services.context.extensionUri, METRICS_VIEW, this.state, {
      onUnknown: (_, why) => services.output.warn(`Metrics: ignored a message from the view (${why})`),
    });
    this.listen();
    this.disposables.push(
      { dispose: () => this.channel.dispose() },
      panel.onDidChangeViewState(() => this.schedule()),
      panel.onDidDispose(() => this.dispose()),
    );
    void this.load();
  }

  get jobNames(): string[] {
    return this.jobs.map((j) => j.name);
  }

  /** Adds jobs to overlay (an LR sweep) and reloads. */
  add(jobs: MetricsJob[]): void {
    for (const job of jobs)
      if (!this.jobs.some((j) => j.name === job.name && j.category === job.category && j.region === job.region)) this.jobs.push(job);
    this.panel.title = `Metrics: ${this.jobs.map((j) => j.name).join(', ')}`;
    void this.load();
  }

  /** The view's actions; a page that (re)loads gets the current state. */
  private listen(): void {
    const on = this.channel;
    on.onReady(() => this.post());
    on.on('refresh', () => void this.load());
    on.on('window', ({ window }) => {
      this.state = { ...this.state, window: Math.max(1, Math.min(100, Math.round(window))) };
      this.post();
    });
    on.on('extraKeys', ({ keys }) => {
      this.state = { ...this.state, extraKeys: keys };
      void this.load();
    });
    on.on('addJob', async () => {
      const job = await this.pickJob();
      if (job) this.add([job]);
    });
    on.on('removeJob', ({ job }) => {
      this.jobs.splice(job, 1);
      void this.load();
    });
    on.on('openMlflow', ({ job }) => void this.openMlflow(job));
    on.on('copyCsv', async () => {
      await vscode.env.clipboard.writeText(this.csv());
      void vscode.window.showInformationMessage('MTRL: the metrics are on the clipboard as CSV.');
    });
    on.on('openRollouts', ({ job, step }) => {
      const target = this.jobs[job];
      if (target)
        void vscode.commands.executeCommand('mtrl.openRollouts', {
          jobName: target.name,
          category: target.category,
          region: target.region,
          step,
        });
    });
    on.on('drawn', ({ points }) => (this.drawn = points));
  }

  /** Loads every job in parallel (the MLflow client bounds the requests of each). */
  async load(): Promise<void> {
    this.loading?.abort();
    const controller = (this.loading = new AbortController());
    this.state = { ...this.state, loading: true };
    this.post();
    // The health keys too: each finding is marked on the chart of its metric.
    const health = this.services.settings.get('health.enabled');
    const keys = [...new Set([...FIXED_CHARTS.flatMap((c) => c.keys), ...this.state.extraKeys, ...(health ? HEALTH_KEYS : [])])];
    const thresholds = healthThresholds((key) => this.services.settings.get(key));
    const pricing = this.services.settings.pricing();
    const deadline = viewDeadline(controller.signal);
    const signal = deadline.signal;
    const curves = await Promise.all(
      this.jobs.map(async (job): Promise<JobCurves> => {
        try {
          const m = await loadJobMetrics(
            this.services.aws,
            { jobName: job.name, category: job.category, region: job.region },
            { keys, signal },
          );
          this.loaded.set(`${job.region}/${job.category}/${job.name}`, m);
          const now = new Date();
          const report = health ? checkHealth(healthInputOf(m.job, m.series, now.getTime()), thresholds) : undefined;
          const key = `${job.region}/${job.category}/${job.name}`;
          if (report) this.health.set(key, report);
          else this.health.delete(key);
          return curvesOf(job, m, pricing, now, report);
        } catch (error) {
          const problem = deadline.timedOut() ? deadline.sentence(`Reading the metrics of ${job.name}`) : this.explain(error, job);
          return { job, running: false, keys: [], series: {}, problem };
        }
      }),
    );
    if (controller.signal.aborted) return;
    this.state = { ...this.state, jobs: curves, loading: false };
    this.post();
    this.schedule();
  }

  private explain(error: unknown, job: MetricsJob): string {
    if (error instanceof MetricsUnavailable || error instanceof RunNotFound) return error.message;
    const text = mlflowFailure(this.services.aws, error, `Reading the metrics of ${job.name}`, job.region);
    this.services.output.warn(text);
    return text;
  }

  /** The tree's polling rules: every mtrl.jobs.refreshSeconds while a job runs and the view is visible. */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.panel.visible || !this.state.jobs.some((j) => j.running)) return;
    const seconds = this.services.settings.get('jobs.refreshSeconds');
    this.timer = setTimeout(() => void this.load(), seconds * 1000);
  }

  private async openMlflow(index: number): Promise<void> {
    const job = this.jobs[index];
    const m = job && this.loaded.get(`${job.region}/${job.category}/${job.name}`);
    if (!m) return void vscode.window.showWarningMessage(`MTRL: the MLflow run of ${job?.name ?? 'this job'} is not loaded yet.`);
    try {
      const resource = mlflowResourceOf(m.job);
      // A fresh single-use URL per click: the browser keeps the fragment through the sign-in redirect.
      const url = await mlflowAppUrl(this.services.aws, resource);
      await vscode.env.openExternal(vscode.Uri.parse(`${url}#/experiments/${m.experimentId}/runs/${m.runId}?workspace=default`, true));
    } catch (error) {
      const action = 'Opening MLflow (needs sagemaker:CreatePresignedMlflowAppUrl and sagemaker-mlflow:AccessUI)';
      void vscode.window.showErrorMessage(mlflowFailure(this.services.aws, error, action));
    }
  }

  /** What Export Report… writes: the curves as drawn, the window and added charts, the jobs and the one job's health check. */
  shown(): { loading: boolean; jobs: MetricsJob[]; curves: JobCurves[]; charts: ReportCharts; health?: HealthReport } {
    const [only] = this.jobs;
    const health = this.jobs.length === 1 ? this.health.get(`${only.region}/${only.category}/${only.name}`) : undefined;
    const charts = { window: this.state.window, extraKeys: this.state.extraKeys };
    return { loading: this.state.loading, jobs: [...this.jobs], curves: this.state.jobs, charts, ...(health ? { health } : {}) };
  }

  /** Every loaded key of every job, one block per job. */
  csv(): string {
    return this.jobs
      .map((job) => this.loaded.get(`${job.region}/${job.category}/${job.name}`))
      .filter((m): m is JobMetrics => m !== undefined)
      .map((m) => `# ${m.job.name} (run ${m.runId})\n${stepRowsCsv(stepRows(m.series), Object.keys(m.series))}`)
      .join('\n');
  }

  private post(): void {
    this.channel.notify('state', this.state);
  }

  dispose(): void {
    if (MetricsPanel.current === this) MetricsPanel.current = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.loading?.abort();
    this.disposables.forEach((d) => d.dispose());
  }
}
