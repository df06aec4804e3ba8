import { intervalText, type EvaluationResult } from '../../core/evaluation/compare';
import type { ComparisonGrid } from '../../core/evaluation/grid';
import { escapeHtml, webviewPage } from '../../webview-kit/page';

// No vscode here: the page is static HTML rendered from a grid, tested in Node and in Chromium.

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 1.2em 1.2em; }
h1 { font-size: 1.4em; font-weight: 600; margin-bottom: .2em; }
h2 { font-size: 1.1em; font-weight: 600; margin-top: 1.4em; }
.meta, .footnote, .sub, .unit { color: var(--vscode-descriptionForeground); }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: .35em .9em .35em 0; border-bottom: 1px solid var(--vscode-editorWidget-border, var(--vscode-panel-border, transparent)); vertical-align: top; }
th[scope=row] { font-weight: 600; white-space: nowrap; }
.num { font-family: var(--vscode-editor-font-family); font-variant-numeric: tabular-nums; }
.big { font-size: 1.15em; font-weight: 600; }
.sub { font-size: .9em; display: block; }
.nowrap { white-space: nowrap; }
td { min-width: 9em; max-width: 15em; }
.sig { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); font-weight: 600; }
.neg.sig { color: var(--vscode-testing-iconFailed, var(--vscode-errorForeground)); }
svg .track { fill: var(--vscode-editorWidget-border, var(--vscode-charts-lines)); opacity: .35; }
/* One colour per model column; charts.orange is translucent in current themes, so the second is purple. */
.c0 { --series: var(--vscode-charts-blue); } .c1 { --series: var(--vscode-charts-purple); } .c2 { --series: var(--vscode-charts-green); } .c3 { --series: var(--vscode-charts-yellow); }
svg .bar { fill: var(--series); }
svg .whisker { stroke: var(--vscode-foreground); stroke-width: 1.5; }
.legend span { margin-right: 1em; white-space: nowrap; }
.swatch { display: inline-block; width: .8em; height: .8em; margin-right: .3em; background: var(--series); }
.curves { display: flex; flex-wrap: wrap; gap: 1.2em; }
figure { margin: 0; }
figcaption { font-weight: 600; margin-bottom: .3em; }
svg .axis { stroke: var(--vscode-descriptionForeground); stroke-width: 1; opacity: .6; }
svg text { fill: var(--vscode-descriptionForeground); font-size: 10px; font-family: var(--vscode-font-family); }
svg .curve { fill: none; stroke-width: 2; stroke: var(--series); }
svg .dot { fill: var(--series); }
`;

const BAR_WIDTH = 160;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;

/** pass@1 as a bar with its 95 % interval as a whisker, 0–100 %. */
function barSvg(result: EvaluationResult, colour: number): string {
  const x = (v: number) => (v * BAR_WIDTH).toFixed(1);
  const [lo, hi] = result.interval;
  return `<svg width="${BAR_WIDTH}" height="14" aria-hidden="true"><rect class="track" x="0" y="3" width="${BAR_WIDTH}" height="8"></rect><rect class="bar c${colour % 4}" x="0" y="3" width="${x(result.passAt1)}" height="8"></rect><line class="whisker" x1="${x(lo)}" x2="${x(hi)}" y1="7" y2="7"></line><line class="whisker" x1="${x(lo)}" x2="${x(lo)}" y1="2" y2="12"></line><line class="whisker" x1="${x(hi)}" x2="${x(hi)}" y1="2" y2="12"></line></svg>`;
}

const CURVE = { width: 260, height: 130, left: 34, right: 10, top: 8, bottom: 20 };

/** One row's pass@k against k, a line per model in its column's colour; undefined when no model logged k > 1. */
function passAtKFigure(grid: ComparisonGrid, row: string): string | undefined {
  const series = grid.columns
    .map((column, colour) => ({ column, colour, points: grid.cell(row, column)?.passAtK ?? [] }))
    .filter((s) => s.points.length > 1);
  if (!series.length) return undefined;
  const ks = [...new Set(series.flatMap((s) => s.points.map((p) => p.k)))].sort((a, b) => a - b);
  const { width, height, left, right, top, bottom } = CURVE;
  // k is spaced evenly by rank: the logged ks (1, 2, 4, 8) are what matter, not their distance.
  const x = (k: number) => (left + (ks.indexOf(k) * (width - left - right)) / Math.max(1, ks.length - 1)).toFixed(1);
  const y = (v: number) => (top + (1 - v) * (height - top - bottom)).toFixed(1);
  const axes = `<line class="axis" x1="${left}" x2="${width - right}" y1="${y(0)}" y2="${y(0)}"></line><line class="axis" x1="${left}" x2="${left}" y1="${y(0)}" y2="${y(1)}"></line><text x="${left - 4}" y="${y(1)}" text-anchor="end" dominant-baseline="middle">100 %</text><text x="${left - 4}" y="${y(0)}" text-anchor="end" dominant-baseline="middle">0 %</text>${ks.map((k) => `<text x="${x(k)}" y="${height - 6}" text-anchor="middle">k=${k}</text>`).join('')}`;
  const lines = series.map(
    (s) =>
      `<polyline class="curve c${s.colour % 4}" points="${s.points.map((p) => `${x(p.k)},${y(p.value)}`).join(' ')}"></polyline>${s.points.map((p) => `<circle class="dot c${s.colour % 4}" cx="${x(p.k)}" cy="${y(p.value)}" r="2.5"></circle>`).join('')}`,
  );
  const spoken = series.map((s) => `${s.column}: ${s.points.map((p) => `pass@${p.k} ${pct(p.value)}`).join(', ')}`).join('; ');
  return `<figure><figcaption>${escapeHtml(row)}</figcaption><svg width="${width}" height="${height}" role="img" aria-label="${escapeHtml(spoken)}">${axes}${lines.join('')}</svg></figure>`;
}

function cellHtml(result: EvaluationResult | undefined, colour: number): string {
  if (!result) return '<td><span class="sub">not run or not completed</span></td>';
  const extra = [
    result.meanReward === undefined ? '' : `mean reward ${result.meanReward.toFixed(3)}`,
    `${result.succeeded}/${result.rollouts} solved`,
    result.tokens === undefined ? '' : `${result.tokens.toLocaleString('en-US')} tokens`,
    result.cost === undefined ? '' : `$${result.cost.toFixed(2)}`,
    result.contradiction ? `flagged: ${result.contradiction}` : '',
  ].filter(Boolean);
  const passAtK =
    result.passAtK.length > 1 ? `<span class="sub">${result.passAtK.map((p) => `pass@${p.k} ${pct(p.value)}`).join(' · ')}</span>` : '';
  return `<td><span class="big num">${pct(result.passAt1)}</span> <span class="num sub nowrap" title="95 % Wilson interval">${intervalText(result.interval)}</span>${barSvg(result, colour)}<span class="sub">${escapeHtml(extra.join(' · '))}</span>${passAtK}</td>`;
}

/** The comparison page: one row per decoding setting, one column per model, a delta column per adapter against the base model. */
export function comparisonHtml(title: string, grid: ComparisonGrid, notes: readonly string[], nonce: string): string {
  const others = grid.columns.filter((c) => c !== grid.baseline);
  const head = [
    `<th scope="col">settings</th>`,
    ...grid.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`),
    ...others.map((c) => `<th scope="col">Δ ${escapeHtml(c)} − ${escapeHtml(grid.baseline ?? '')}</th>`),
  ];
  const rows = grid.rows.map((row) => {
    const cells = grid.columns.map((column, i) => cellHtml(grid.cell(row, column), i));
    const deltas = others.map((column) => {
      const d = grid.deltas.find((x) => x.row === row && x.column === column)?.delta;
      if (!d) return '<td><span class="sub">–</span></td>';
      const mark = d.significant
        ? `<span class="sig${d.delta < 0 ? ' neg' : ''}" title="the 95 % interval excludes zero">${d.delta < 0 ? '▼' : '▲'}</span> `
        : '';
      return `<td>${mark}<span class="big num">${points(d.delta)}</span> <span class="unit">points</span><span class="num sub nowrap" title="Newcombe's 95 % interval of the difference">${intervalText(d.interval, true)}</span><span class="sub">${d.significant ? 'more than noise' : 'within noise'}</span></td>`;
    });
    return `<tr><th scope="row">${escapeHtml(row)}</th>${cells.join('')}${deltas.join('')}</tr>`;
  });
  const curves = grid.rows.map((row) => passAtKFigure(grid, row)).filter(Boolean);
  const curvesHtml = curves.length ? `<h2>pass@k</h2><div class="curves">${curves.join('')}</div>` : '';
  const legend = grid.columns.map((c, i) => `<span><i class="swatch c${i % 4}"></i>${escapeHtml(c)}</span>`).join('');
  const body = grid.rows.length
    ? `<h1>${escapeHtml(title)}</h1>
<p class="meta">pass@1 with its 95 % Wilson interval (solved and played rollouts); deltas with Newcombe's interval, ▲ where it excludes zero.</p>
<p class="legend">${legend}</p>
<div class="scroll"><table><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>
${curvesHtml}
${notes.map((n) => `<p class="footnote">${escapeHtml(n)}</p>`).join('')}
<p class="footnote">Intervals treat the runs as independent samples: for the same words played by two models they are conservative. Copy the table with the Markdown or CSV buttons in the editor's title bar.</p>`
    : `<h1>${escapeHtml(title)}</h1><p>No completed evaluation to compare yet.</p>${notes.map((n) => `<p class="footnote">${escapeHtml(n)}</p>`).join('')}
<p class="footnote">Evaluations appear here once they complete; a sweep runs one at a time.</p>`;
  return webviewPage({ title, nonce, style: STYLE, body });
}
