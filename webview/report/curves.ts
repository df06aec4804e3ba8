import type uPlot from 'uplot';
import { FIXED_CHARTS, type JobCurves } from '../../src/core/metrics/curves';
import type { ReportCharts } from '../../src/core/report/model';
import { drawChart } from '../metrics/charts';
import { h, icon } from '../replay/dom';

/** The metrics view's default moving-average window, for a report not exported from the view. */
const DEFAULT_CHARTS: ReportCharts = { window: 10, extraKeys: [] };

/** The metrics view's charts of one job or several overlaid, each health finding marked at its step with its sentence below. */
export function renderCurves(parent: HTMLElement, jobs: readonly JobCurves[], charts: ReportCharts = DEFAULT_CHARTS): void {
  const plots: uPlot[] = [];
  const width = () => Math.max(280, Math.min(parent.clientWidth, 1100) - 16);
  const several = jobs.length > 1;
  const findings = jobs.flatMap((j) => (j.findings ?? []).map((f) => ({ ...f, job: j.job.name })));
  for (const j of jobs)
    if (j.problem) parent.append(h('p', { class: 'problem' }, icon('warning'), ' ', several ? `${j.job.name}: ${j.problem}` : j.problem));
  const specs = [
    ...FIXED_CHARTS.map((c) => ({ title: c.title, keys: c.keys, id: c.id })),
    ...charts.extraKeys.map((k) => ({ title: k, keys: [k], id: k })),
  ];
  for (const f of findings)
    if (!specs.some((s) => s.keys.includes(f.metric))) specs.push({ title: f.metric, keys: [f.metric], id: f.metric });
  for (const spec of specs) {
    const box = h('section', { class: 'chart' });
    parent.append(box);
    const marked = findings.filter((f) => spec.keys.includes(f.metric));
    const named = (f: (typeof findings)[number]) => `${several ? `${f.job}: ` : ''}${f.kind} at step ${f.step}`;
    const chart = drawChart(
      box,
      jobs,
      {
        title: spec.title,
        keys: spec.keys,
        smooth: spec.id === 'reward' ? charts.window : undefined,
        percentKeys: spec.id === 'validation' ? ['val/reward/pass_at_1'] : undefined,
        markers: marked.map((f) => ({ step: f.step, label: `${f.kind} · step ${f.step}` })),
      },
      width(),
    );
    if (!chart) {
      box.remove();
      continue;
    }
    plots.push(chart.plot);
    const settings = spec.id === 'validation' ? jobs.find((j) => j.validationSettings)?.validationSettings : undefined;
    if (settings) box.append(h('p', { class: 'note' }, icon('info'), ' ', settings));
    for (const f of marked) box.append(h('p', { class: `finding ${f.severity}` }, `${named(f)}: ${f.sentence}`));
  }
  new ResizeObserver(() => plots.forEach((p) => p.setSize({ width: width(), height: 220 }))).observe(parent);
}
