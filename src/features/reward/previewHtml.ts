import { extent } from '../../core/metrics/extent';
import { signed, summaryLine, type RewardPreview, type RewardPreviewFailure, type ScoredGame } from '../../core/reward';
import { rewardPreviewGames } from '../../core/environments/registry';
import { escapeHtml, webviewPage } from '../../webview-kit/page';

// No vscode here: the page is plain HTML, rendered from a preview result and tested in Node.

const CHART_WIDTH = 220;
const CHART_HEIGHT = 16;

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 1.2em 1.2em; }
h1 { font-size: 1.4em; font-weight: 600; margin-bottom: .2em; }
h2 { font-size: 1.1em; font-weight: 600; margin-top: 1.4em; }
.meta, .footnote { color: var(--vscode-descriptionForeground); }
code { font-family: var(--vscode-editor-font-family); }
ul.invariants { list-style: none; padding: 0; }
ul.invariants li { margin: .3em 0; }
.ok .mark { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
.fail .mark { color: var(--vscode-testing-iconFailed, var(--vscode-errorForeground)); }
.mark { font-weight: bold; display: inline-block; width: 1.2em; }
table { border-collapse: collapse; width: 100%; }
td.drawn { width: 35%; min-width: 60px; }
svg.drawn { display: block; width: 100%; max-width: ${CHART_WIDTH}px; height: ${CHART_HEIGHT}px; }
th, td { text-align: left; padding: .25em .8em .25em 0; border-bottom: 1px solid var(--vscode-editorWidget-border, transparent); vertical-align: middle; }
td.num { text-align: right; font-family: var(--vscode-editor-font-family); font-variant-numeric: tabular-nums; }
.word { display: inline-flex; gap: 1px; margin-right: .5em; }
.tile { display: inline-block; width: 1.2em; text-align: center; font-family: var(--vscode-editor-font-family); font-weight: bold; border-radius: 2px; color: var(--vscode-editor-background); }
.tile.G { background: var(--vscode-charts-green); }
.tile.Y { background: var(--vscode-charts-yellow); }
.tile.X { background: var(--vscode-disabledForeground, var(--vscode-charts-lines)); }
.invalid { font-family: var(--vscode-editor-font-family); color: var(--vscode-errorForeground); text-decoration: line-through; margin-right: .5em; }
svg .bar.pos { fill: var(--vscode-charts-blue); }
svg .bar.neg { fill: var(--vscode-charts-red); }
svg .zero { stroke: var(--vscode-foreground); stroke-width: 1; vector-effect: non-scaling-stroke; }
.error { border-left: 3px solid var(--vscode-errorForeground); padding-left: .8em; }
pre { white-space: pre-wrap; font-family: var(--vscode-editor-font-family); }
`;

/** No scripts: the page is static HTML and CSS, which keeps its CSP as tight as it gets. */
function page(nonce: string, title: string, body: string): string {
  return webviewPage({ title, nonce, style: STYLE, body });
}

/** A move as the environment pack's tiles, or struck out when it is not a valid move. */
function guessHtml(guess: string, answer: string): string {
  const tiles = rewardPreviewGames()?.tiles(guess, answer);
  if (!tiles) return `<span class="invalid" title="not a valid guess">${escapeHtml(guess) || '(empty)'}</span>`;
  const label = tiles.map((t) => `${t.letter} ${t.name}`).join(', ');
  const drawn = tiles.map((t) => `<span class="tile ${escapeHtml(t.mark)}" aria-hidden="true">${escapeHtml(t.letter)}</span>`).join('');
  return `<span class="word" role="img" aria-label="${escapeHtml(label)}">${drawn}</span>`;
}

function chartHtml(reward: number, lo: number, hi: number): string {
  const x = (v: number) => ((v - lo) / (hi - lo || 1)) * CHART_WIDTH;
  const from = x(Math.min(0, reward));
  const width = Math.max(1, x(Math.max(0, reward)) - from);
  // Drawn in a fixed coordinate space and stretched to the column: a half-width editor shrinks the bar, never cuts it.
  return `<svg class="drawn" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" preserveAspectRatio="none" aria-hidden="true"><rect class="bar ${reward < 0 ? 'neg' : 'pos'}" x="${from.toFixed(1)}" y="2" width="${width.toFixed(1)}" height="${CHART_HEIGHT - 4}"></rect><line class="zero" x1="${x(0).toFixed(1)}" x2="${x(0).toFixed(1)}" y1="0" y2="${CHART_HEIGHT}"></line></svg>`;
}

function gameRow(game: ScoredGame, answer: string, lo: number, hi: number): string {
  const route = game.via === 'text' ? ' <span class="meta">(through guess_from_text)</span>' : '';
  return `<tr><th scope="row"><code>${escapeHtml(game.name)}</code></th><td>${game.guesses.map((g) => guessHtml(g, answer)).join('')}${route}</td><td class="num">${signed(game.reward)}</td><td class="drawn">${chartHtml(game.reward, lo, hi)}</td></tr>`;
}

/** The preview page: invariants, then every game with its guesses, score and a bar. */
export function previewHtml(preview: RewardPreview, fileName: string, nonce: string): string {
  const { min: lo, max: hi } = extent(
    preview.games.map((g) => g.reward),
    0,
  );
  const what = preview.convention === 'class' ? `${preview.target}.final_reward()` : `${preview.target}(answer, guesses)`;
  const invariants = preview.invariants
    .map(
      (i) =>
        `<li class="${i.ok ? 'ok' : 'fail'}"><span class="mark" aria-label="${i.ok ? 'holds' : 'fails'}">${i.ok ? '\u2713' : '\u2717'}</span><code>${i.name}</code>: ${escapeHtml(i.detail)}</li>`,
    )
    .join('');
  const extras = [
    preview.stubbed.length
      ? `<p class="footnote">Not installed, replaced by stubs: ${preview.stubbed.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ')}.</p>`
      : '',
    ...preview.notes.map((n) => `<p class="footnote">Note: ${escapeHtml(n)}</p>`),
  ].join('');
  const body = `<h1>Reward preview</h1>
<p class="meta"><code>${escapeHtml(fileName)}</code> line ${preview.line}, <code>${escapeHtml(what)}</code>, answer <code>${escapeHtml(preview.answer.toUpperCase())}</code></p>
<p><strong>${escapeHtml(summaryLine(preview))}</strong></p>
<h2>Invariants</h2><ul class="invariants">${invariants}</ul>
<h2>Games</h2>
<table><thead><tr><th scope="col">game</th><th scope="col">guesses</th><th scope="col">reward</th><th scope="col">reward, drawn to scale</th></tr></thead>
<tbody>${preview.games.map((g) => gameRow(g, preview.answer, lo, hi)).join('')}</tbody></table>
${extras}
<p class="footnote">Scores of the file as saved, recomputed on save. The user code's output is in the MTRL output channel.</p>`;
  return page(nonce, `Reward preview: ${fileName}`, body);
}

/** The page when the reward could not be scored: what happened and where. */
export function failureHtml(failure: RewardPreviewFailure, fileName: string, nonce: string): string {
  const where = failure.line ? ` at line ${failure.line}${failure.column ? `, column ${failure.column}` : ''}` : '';
  const body = `<h1>Reward preview</h1>
<section class="error"><h2>The reward in <code>${escapeHtml(fileName)}</code> could not be scored${where}</h2>
<pre>${escapeHtml(failure.message)}</pre></section>
<p class="footnote">Fix the file and save: the preview runs again. Python's own output is in the MTRL output channel.</p>`;
  return page(nonce, `Reward preview: ${fileName}`, body);
}
