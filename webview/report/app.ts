import type { ReportModel } from '../../src/core/report/model';
import { ReplayBoard } from '../replay/app';
import { h, icon, replace } from '../replay/dom';
import { renderCurves } from './curves';
import { connectReport } from './host';
import { signalSection } from './signal';

const when = (iso: string) => new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });

/** The shared report: what it is of and when it was made, the health findings and curves when given, then the board. */
export function renderReport(root: HTMLElement, model: ReportModel): void {
  // A report of curves or a signal check without rollouts has no board to draw.
  const board = model.rollouts.length ? h('section', { class: 'report-board', attrs: { 'aria-label': 'Rollouts' } }) : null;
  const health = model.health;
  const curves = model.curves ? h('section', { class: 'report-curves', attrs: { 'aria-label': 'Curves' } }) : null;
  replace(
    root,
    h(
      'header',
      { class: 'report-header' },
      h('h1', {}, model.job ? `MTRL report: ${model.job}` : 'MTRL report'),
      h('p', { class: 'report-counts' }, model.counts),
      h('p', { class: 'muted' }, `From ${model.source} · made ${when(model.madeAt)}`),
      ...model.notes.map((n) => h('p', { class: 'notice' }, icon('warning'), ' ', n)),
    ),
    health
      ? h(
          'section',
          { class: 'report-health', attrs: { 'aria-label': 'Health findings' } },
          h('h2', {}, 'Health findings'),
          health.findings.length ? null : h('p', {}, 'No finding: nothing crossed a threshold.'),
          ...health.findings.map((f) =>
            h(
              'div',
              { class: `finding ${f.severity}` },
              h('strong', {}, `${f.severity === 'warning' ? 'Warning' : 'Info'}: ${f.kind} at step ${f.step}`),
              h('p', {}, f.sentence),
              h('p', { class: 'muted' }, `Threshold: ${f.threshold.text} (${f.threshold.setting} = ${f.threshold.value})`),
              h('p', {}, `What to do: ${f.action}`),
            ),
          ),
          health.notChecked.length
            ? h('p', { class: 'muted' }, `Not checked: ${health.notChecked.map((n) => `${n.kind} (${n.reason})`).join('; ')}`)
            : null,
        )
      : null,
    model.signal ? signalSection(model.signal) : null,
    curves ? h('h2', {}, 'Curves') : null,
    curves,
    board,
  );
  if (model.curves && curves) renderCurves(curves, model.curves, model.charts);
  if (!board) return;
  const initial = {
    source: { kind: 'fixture' as const, label: model.source },
    status: { state: 'ready' as const, rollouts: model.rollouts.length, following: false },
    settings: { colorBlind: false },
  };
  new ReplayBoard(board, initial, connectReport(model));
}
