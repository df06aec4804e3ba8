import type { SignalView } from '../../src/core/signal/reportView';
import { h } from '../replay/dom';

const when = (iso: string) => new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });

/** A kept learning-signal check in the signal report's words: its verdict, what it means, its figures and advice. */
export function signalSection(view: SignalView): HTMLElement {
  const heading = h('h2', {}, 'Learning signal');
  const source = h('p', { class: 'muted' }, view.kind === 'report' && view.when ? `${view.title} · ${when(view.when)}` : view.title);
  if (view.kind !== 'report')
    return h('section', { class: 'report-signal', attrs: { 'aria-label': 'Learning signal' } }, heading, source, h('p', {}, view.message));
  return h(
    'section',
    { class: 'report-signal', attrs: { 'aria-label': 'Learning signal' } },
    heading,
    source,
    h('p', { class: `signal-headline ${view.level}` }, view.headline),
    ...view.meaning.map((line) => h('p', {}, line)),
    h(
      'dl',
      { class: 'signal-figures' },
      ...view.figures.flatMap((f) => [h('dt', {}, f.label), h('dd', { attrs: { title: f.hint } }, f.value)]),
    ),
    view.recommendations.length ? h('ul', {}, ...view.recommendations.map((r) => h('li', {}, r))) : null,
  );
}
