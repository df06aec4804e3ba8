import type uPlot from 'uplot';
import { FIXED_CHARTS, type JobCurves } from '../../src/core/metrics/curves';
import { drawChart } from '../metrics/charts';
import { h, icon } from '../replay/dom';

/** The reward chart's moving-average window, the metrics view's default. */
const WINDOW = 10;

/** The metrics view's fixed charts of one job, each health finding marked at its step with its sentence below. */
export function renderCurves(parent: HTMLElement, curves: JobCurves): void {
  const plots: uPlot[] = [];
  const width = () => Math.max(280, Math.min(parent.clientWidth, 1100) - 16);
  const findings = curves.findings ?? [];
  if (curves.problem) parent.append(h('p', { class: 'problem' }, icon('warning'), ' ', curves.problem));
  const specs = FIXED_CHARTS.map((c) => ({ title: c.title, keys: c.keys, id: c.id }));
  for (const f of findings)
    if (!specs.some((s) => s.keys.includes(f.metric))) specs.push({ title: f.metric, keys: [f.metric], id: f.metric });
  for (const spec of specs) {
    const box = h('section', { class: 'chart' });
    parent.append(box);
    const marked = findings.filter((f) => spec.keys.includes(f.metric));
    const chart = drawChart(
      box,
      [curves],
      {
        title: spec.title,
        keys: spec.keys,
        smooth: spec.id === 'reward' ? WINDOW : undefined,
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
    if (spec.id === 'validation' && curves.validationSettings)
      box.append(h('p', { class: 'note' }, icon('info'), ' ', curves.validationSettings));
    for (const f of marked) box.append(h('p', { class: `finding ${f.severity}` }, `${f.kind} at step ${f.step}: ${f.sentence}`));
  }
  new ResizeObserver(() => plots.forEach((p) => p.setSize({ width: width(), height: 220 }))).observe(parent);
}
