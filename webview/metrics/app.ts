import type uPlot from 'uplot';
import { FIXED_CHARTS, type MetricsProtocol, type MetricsState, type PersistedMetrics } from '../../src/shared/metrics';
import type { PageConnection } from '../../src/webview-kit/webview';
import { h, icon, replace } from '../replay/dom';
import { drawChart, jobColors } from './charts';

/** The view's typed channel to the extension, and where it keeps what it shows for a window reload. */
export type MetricsConnection = PageConnection<MetricsProtocol, PersistedMetrics>;

const button = (label: string, codicon: string, onClick: () => void, title?: string) =>
  h('vscode-button', { attrs: { secondary: true, title: title ?? label }, on: { click: onClick } }, icon(codicon), ` ${label}`);

/** The metrics view: a toolbar, one row per job, then the charts (fixed ones and picked keys). */
export class MetricsView {
  private readonly toolbar = h('header', { class: 'toolbar' });
  private readonly jobsList = h('section', { class: 'jobs', attrs: { 'aria-label': 'Jobs' } });
  private readonly charts = h('main', { class: 'charts' });
  private plots: uPlot[] = [];
  /** What the toolbar, job rows and charts were last built from. */
  private drawnFrom: { toolbar?: string; jobs?: string; charts?: string; loading?: boolean } = {};
  /** Points drawn per chart, reported again when a state changes nothing drawn. */
  private drawn: Record<string, number> = {};

  constructor(
    root: HTMLElement,
    private state: MetricsState,
    private readonly host: MetricsConnection,
  ) {
    replace(root, this.toolbar, this.jobsList, this.charts);
    host.channel.on('state', (next) => this.render(next));
    new ResizeObserver(() => this.resize()).observe(this.charts);
    // Canvas colours are read when drawing: redraw when VS Code switches the theme (body class, variables on <html>).
    let redraw = 0;
    const themeChanged = new MutationObserver(() => {
      cancelAnimationFrame(redraw);
      redraw = requestAnimationFrame(() => this.render(this.state, true));
    });
    themeChanged.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-id'] });
    themeChanged.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
    this.render(state);
    host.channel.ready();
  }

  private width(): number {
    return Math.max(300, this.charts.clientWidth - 16);
  }

  private resize(): void {
    for (const plot of this.plots) plot.setSize({ width: this.width(), height: 220 });
  }

  /** Rebuilds only the parts whose inputs changed (a refresh posts `loading` twice with the same curves); `theme` redraws all. */
  private render(state: MetricsState, theme = false): void {
    this.state = state;
    this.host.saveState({ jobs: state.jobs.map((j) => j.job), window: state.window, extraKeys: state.extraKeys });
    const toolbar = JSON.stringify([state.loading, state.window, state.extraKeys, this.pickableKeys()]);
    const jobs = JSON.stringify(state.jobs.map((j) => [j.job, j.status, j.forecast, j.runId, j.problem]));
    const charts = JSON.stringify([
      state.window,
      state.extraKeys,
      state.jobs.map((j) => [j.job.name, j.series, j.validationSettings, j.findings]),
    ]);
    if (theme || toolbar !== this.drawnFrom.toolbar) this.renderToolbar();
    if (theme || jobs !== this.drawnFrom.jobs) this.renderJobs();
    // Without charts the loading flag decides between nothing and the empty-state sentence.
    const emptyChanged = this.plots.length === 0 && state.loading !== this.drawnFrom.loading;
    if (theme || emptyChanged || charts !== this.drawnFrom.charts) this.renderCharts();
    else if (!state.loading) this.host.channel.notify('drawn', { points: this.drawn });
    this.drawnFrom = { toolbar, jobs, charts, loading: state.loading };
  }

  /** Keys of the loaded runs not on a fixed chart nor picked yet: the picker's options. */
  private pickableKeys(): string[] {
    const fixed = new Set(FIXED_CHARTS.flatMap((c) => c.keys));
    return [...new Set(this.state.jobs.flatMap((j) => j.keys))].filter((k) => !fixed.has(k) && !this.state.extraKeys.includes(k)).sort();
  }

  private renderToolbar(): void {
    const s = this.state;
    const windowField = h('vscode-textfield', {
      attrs: {
        type: 'number',
        min: 1,
        max: 100,
        value: s.window,
        'aria-label': 'Moving-average window (steps)',
        title: 'Moving-average window (steps)',
      },
    });
    windowField.addEventListener('change', () => this.host.channel.notify('window', { window: Number(windowField.value) || 10 }));
    const keys = this.pickableKeys();
    // A native select: the toolkit's combobox would push the bundle past its budget.
    const picker = h(
      'select',
      { class: 'picker', attrs: { 'aria-label': 'Another metric to chart' } },
      h('option', { attrs: { value: '' } }, 'Another metric…'),
      ...keys.map((k) => h('option', { attrs: { value: k } }, k)),
    );
    picker.addEventListener('change', () => {
      const key = picker.value;
      if (key) this.host.channel.notify('extraKeys', { keys: [...s.extraKeys, key] });
    });
    replace(
      this.toolbar,
      h('h1', {}, icon('graph-line'), ' Training curves'),
      s.loading ? h('vscode-progress-ring', { attrs: { 'aria-label': 'Loading metrics' } }) : null,
      h('label', { class: 'window' }, 'Average over ', windowField, ' steps'),
      picker,
      button('Add Job', 'add', () => this.host.channel.notify('addJob'), 'Overlay another job (e.g. an LR sweep)'),
      button('Refresh', 'refresh', () => this.host.channel.notify('refresh')),
      button('Copy as CSV', 'copy', () => this.host.channel.notify('copyCsv')),
    );
  }

  private renderJobs(): void {
    const colors = jobColors();
    replace(
      this.jobsList,
      ...this.state.jobs.map((job, i) =>
        h(
          'div',
          { class: 'job' },
          h('span', { class: 'swatch', attrs: { 'aria-hidden': 'true' } }),
          h('strong', {}, job.job.name),
          job.status ? h('span', { class: 'muted' }, ` · ${job.status}`) : null,
          job.forecast ? h('span', { class: 'forecast' }, ` · ${job.forecast}`) : null,
          job.runId ? button('Open in MLflow', 'link-external', () => this.host.channel.notify('openMlflow', { job: i })) : null,
          this.state.jobs.length > 1 ? button('Remove', 'close', () => this.host.channel.notify('removeJob', { job: i })) : null,
          job.problem ? h('p', { class: 'problem', attrs: { role: 'alert' } }, icon('warning'), ' ', job.problem) : null,
        ),
      ),
    );
    this.jobsList
      .querySelectorAll<HTMLElement>('.swatch')
      .forEach((el, i) => el.style.setProperty('background', colors[i % colors.length]));
  }

  private renderCharts(): void {
    for (const plot of this.plots) plot.destroy();
    this.plots = [];
    replace(this.charts);
    const drawn: Record<string, number> = {};
    const width = this.width();
    const specs = [
      ...FIXED_CHARTS.map((c) => ({
        title: c.title,
        keys: c.keys,
        smooth: c.id === 'reward' ? this.state.window : undefined,
        percentKeys: c.id === 'validation' ? ['val/reward/pass_at_1'] : undefined,
        note: c.id === 'validation',
      })),
      ...this.state.extraKeys.map((k) => ({ title: k, keys: [k], smooth: undefined, percentKeys: undefined, note: false })),
    ];
    // A finding whose metric no chart draws gets a chart of its own.
    const findings = this.state.jobs.flatMap((j) => (j.findings ?? []).map((f) => ({ ...f, job: j.job.name })));
    for (const f of findings)
      if (!specs.some((s) => s.keys.includes(f.metric)))
        specs.push({ title: f.metric, keys: [f.metric], smooth: undefined, percentKeys: undefined, note: false });
    const evaluations = this.state.jobs.filter((j) => j.job.category === 'AgentRFTEvaluation' && j.keys.length);
    for (const job of evaluations) this.charts.append(this.evaluationTable(job.job.name, job.series));
    for (const spec of specs) {
      const box = h('section', { class: 'chart' });
      this.charts.append(box);
      const marked = findings.filter((f) => spec.keys.includes(f.metric));
      const chart = drawChart(
        box,
        this.state.jobs,
        {
          ...spec,
          onPick: spec.smooth ? (job, step) => this.host.channel.notify('openRollouts', { job, step }) : undefined,
          markers: marked.map((f) => ({ step: f.step, label: `${f.kind} · step ${f.step}` })),
        },
        width,
      );
      if (!chart) {
        box.remove();
        continue;
      }
      this.plots.push(chart.plot);
      drawn[spec.title] = chart.points;
      if (spec.note) {
        const settings = this.state.jobs.find((j) => j.validationSettings)?.validationSettings;
        if (settings) box.append(h('p', { class: 'note' }, icon('info'), ' ', settings));
      }
      for (const f of marked)
        box.append(
          h(
            'p',
            { class: `finding ${f.severity}`, attrs: { role: f.severity === 'warning' ? 'alert' : 'note' } },
            icon(f.severity === 'warning' ? 'warning' : 'info'),
            ` ${this.state.jobs.length > 1 ? `${f.job}: ` : ''}${f.kind} at step ${f.step}: ${f.sentence}`,
          ),
        );
      if (spec.smooth) box.append(h('p', { class: 'hint' }, 'Drag to zoom, double-click to reset; click a step to open its rollouts.'));
    }
    if (!this.state.loading && this.plots.length === 0 && evaluations.length === 0 && this.state.jobs.every((j) => !j.problem)) {
      this.charts.append(h('p', { class: 'problem' }, 'No metrics to draw yet: the first arrive when step 1 finishes.'));
    }
    this.drawn = drawn;
    if (!this.state.loading) this.host.channel.notify('drawn', { points: drawn });
  }

  private evaluationTable(name: string, series: MetricsState['jobs'][number]['series']): HTMLElement {
    const rows = Object.entries(series).filter(([k]) => k.startsWith('eval/'));
    return h(
      'section',
      { class: 'evaluation' },
      h('h2', {}, `${name} (evaluation)`),
      h('table', {}, ...rows.map(([k, s]) => h('tr', {}, h('td', {}, k), h('td', {}, String(s.values[s.values.length - 1]))))),
    );
  }
}
