import { intervalText, type EvaluationResult } from '../../src/core/evaluation/compare';
import type { ComparisonProtocol, ComparisonState } from '../../src/shared/comparison';
import type { PageConnection } from '../../src/webview-kit/webview';
import { h, replace, svg } from '../replay/dom';

export type ComparisonConnection = PageConnection<ComparisonProtocol, undefined>;

const BAR_WIDTH = 160;
const CURVE = { width: 260, height: 130, left: 34, right: 10, top: 8, bottom: 20 };
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;
const colour = (i: number) => `c${i % 4}`;
const cellOf = (state: ComparisonState, row: string, column: string) =>
  state.cells.find((c) => c.row === row && c.column === column)?.result;

/** pass@1 as a bar with its 95 % interval as a whisker, 0–100 %. */
function bar(result: EvaluationResult, i: number): SVGElement {
  const x = (v: number) => (v * BAR_WIDTH).toFixed(1);
  const [lo, hi] = result.interval;
  return svg(
    'svg',
    { width: BAR_WIDTH, height: 14, 'aria-hidden': 'true' },
    svg('rect', { class: 'track', x: 0, y: 3, width: BAR_WIDTH, height: 8 }),
    svg('rect', { class: `bar ${colour(i)}`, x: 0, y: 3, width: x(result.passAt1), height: 8 }),
    svg('line', { class: 'whisker', x1: x(lo), x2: x(hi), y1: 7, y2: 7 }),
    svg('line', { class: 'whisker', x1: x(lo), x2: x(lo), y1: 2, y2: 12 }),
    svg('line', { class: 'whisker', x1: x(hi), x2: x(hi), y1: 2, y2: 12 }),
  );
}

function cell(result: EvaluationResult | undefined, i: number): HTMLElement {
  if (!result) return h('td', {}, h('span', { class: 'sub' }, 'not run or not completed'));
  const extra = [
    result.meanReward === undefined ? '' : `mean reward ${result.meanReward.toFixed(3)}`,
    `${result.succeeded}/${result.rollouts} solved`,
    result.tokens === undefined ? '' : `${result.tokens.toLocaleString('en-US')} tokens`,
    result.cost === undefined ? '' : `$${result.cost.toFixed(2)}`,
    result.contradiction ? `flagged: ${result.contradiction}` : '',
  ].filter(Boolean);
  return h(
    'td',
    {},
    h('span', { class: 'big num' }, pct(result.passAt1)),
    ' ',
    h('span', { class: 'num sub nowrap', attrs: { title: '95 % Wilson interval' } }, intervalText(result.interval)),
    bar(result, i),
    h('span', { class: 'sub' }, extra.join(' · ')),
    result.passAtK.length > 1 ? h('span', { class: 'sub' }, result.passAtK.map((p) => `pass@${p.k} ${pct(p.value)}`).join(' · ')) : null,
  );
}

function deltaCell(state: ComparisonState, row: string, column: string): HTMLElement {
  const d = state.deltas.find((x) => x.row === row && x.column === column)?.delta;
  if (!d) return h('td', {}, h('span', { class: 'sub' }, '–'));
  const mark = d.significant
    ? h('span', { class: d.delta < 0 ? 'sig neg' : 'sig', attrs: { title: 'the 95 % interval excludes zero' } }, d.delta < 0 ? '▼' : '▲')
    : null;
  return h(
    'td',
    {},
    mark,
    mark ? ' ' : null,
    h('span', { class: 'big num' }, points(d.delta)),
    ' ',
    h('span', { class: 'unit' }, 'points'),
    h('span', { class: 'num sub nowrap', attrs: { title: "Newcombe's 95 % interval of the difference" } }, intervalText(d.interval, true)),
    h('span', { class: 'sub' }, d.significant ? 'more than noise' : 'within noise'),
  );
}

/** One row's pass@k against k, a line per model in its column's colour; null when no model logged k > 1. */
function passAtKFigure(state: ComparisonState, row: string): HTMLElement | null {
  const series = state.columns
    .map((column, i) => ({ column, i, points: cellOf(state, row, column)?.passAtK ?? [] }))
    .filter((s) => s.points.length > 1);
  if (!series.length) return null;
  const ks = [...new Set(series.flatMap((s) => s.points.map((p) => p.k)))].sort((a, b) => a - b);
  const { width, height, left, right, top, bottom } = CURVE;
  // k is spaced evenly by rank: the logged ks (1, 2, 4, 8) are what matter, not their distance.
  const x = (k: number) => (left + (ks.indexOf(k) * (width - left - right)) / Math.max(1, ks.length - 1)).toFixed(1);
  const y = (v: number) => (top + (1 - v) * (height - top - bottom)).toFixed(1);
  const label = (tx: number | string, ty: number | string, text: string, anchor: string) =>
    svg('text', { x: tx, y: ty, 'text-anchor': anchor, ...(anchor === 'end' ? { 'dominant-baseline': 'middle' } : {}) }, text);
  const spoken = series.map((s) => `${s.column}: ${s.points.map((p) => `pass@${p.k} ${pct(p.value)}`).join(', ')}`).join('; ');
  return h(
    'figure',
    {},
    h('figcaption', {}, row),
    svg(
      'svg',
      { width, height, role: 'img', 'aria-label': spoken },
      svg('line', { class: 'axis', x1: left, x2: width - right, y1: y(0), y2: y(0) }),
      svg('line', { class: 'axis', x1: left, x2: left, y1: y(0), y2: y(1) }),
      label(left - 4, y(1), '100 %', 'end'),
      label(left - 4, y(0), '0 %', 'end'),
      ...ks.map((k) => label(x(k), height - 6, `k=${k}`, 'middle')),
      ...series.flatMap((s) => [
        svg('polyline', { class: `curve ${colour(s.i)}`, points: s.points.map((p) => `${x(p.k)},${y(p.value)}`).join(' ') }),
        ...s.points.map((p) => svg('circle', { class: `dot ${colour(s.i)}`, cx: x(p.k), cy: y(p.value), r: 2.5 })),
      ]),
    ),
  );
}

/** The comparison: one row per decoding setting, one column per model, a delta column per adapter against the base model. */
export class ComparisonView {
  constructor(
    private readonly root: HTMLElement,
    initial: ComparisonState,
    host: ComparisonConnection,
  ) {
    host.channel.on('state', (next) => this.render(next));
    this.render(initial);
    host.channel.ready();
  }

  private render(state: ComparisonState): void {
    const notes = state.notes.map((n) => h('p', { class: 'footnote' }, n));
    if (!state.rows.length) {
      replace(
        this.root,
        h('h1', {}, state.title),
        h('p', {}, 'No completed evaluation to compare yet.'),
        ...notes,
        h('p', { class: 'footnote' }, 'Evaluations appear here once they complete; a sweep runs one at a time.'),
      );
      return;
    }
    const others = state.columns.filter((c) => c !== state.baseline);
    const head = [
      h('th', { attrs: { scope: 'col' } }, 'settings'),
      ...state.columns.map((c) => h('th', { attrs: { scope: 'col' } }, c)),
      ...others.map((c) => h('th', { attrs: { scope: 'col' } }, `Δ ${c} − ${state.baseline ?? ''}`)),
    ];
    const rows = state.rows.map((row) =>
      h(
        'tr',
        {},
        h('th', { attrs: { scope: 'row' } }, row),
        ...state.columns.map((column, i) => cell(cellOf(state, row, column), i)),
        ...others.map((column) => deltaCell(state, row, column)),
      ),
    );
    const curves = state.rows.map((row) => passAtKFigure(state, row)).filter((f) => f !== null);
    replace(
      this.root,
      h('h1', {}, state.title),
      h(
        'p',
        { class: 'meta' },
        "pass@1 with its 95 % Wilson interval (solved and played rollouts); deltas with Newcombe's interval, ▲ where it excludes zero.",
      ),
      h('p', { class: 'legend' }, ...state.columns.map((c, i) => h('span', {}, h('i', { class: `swatch ${colour(i)}` }), c))),
      // Focusable, so a table wider than the editor scrolls from the keyboard too.
      h(
        'div',
        { class: 'scroll', attrs: { tabindex: 0, role: 'region', 'aria-label': 'pass@1 by settings and model' } },
        h('table', {}, h('thead', {}, h('tr', {}, ...head)), h('tbody', {}, ...rows)),
      ),
      curves.length ? h('h2', {}, 'pass@k') : null,
      curves.length ? h('div', { class: 'curves' }, ...curves) : null,
      ...notes,
      h(
        'p',
        { class: 'footnote' },
        "Intervals treat the runs as independent samples: for the same words played by two models they are conservative. Copy the table with the Markdown or CSV buttons in the editor's title bar.",
      ),
    );
  }
}
