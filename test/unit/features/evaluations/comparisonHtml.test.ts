import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { evaluationResult, type EvaluationResult } from '../../../../src/core/evaluation/compare';
import { comparisonGrid, type GridCell } from '../../../../src/core/evaluation/grid';
import { comparisonHtml } from '../../../../src/features/evaluations/comparisonHtml';
import { launchChromium, watchProblems } from '../replay/browser';

const shots = path.resolve(__dirname, '../../../../test-results');

/** The write-up's table in our shape: solved out of 128 words per cell. */
function grid() {
  const cell = (row: string, column: string, solved: number, passAtK: Record<string, number> = {}): GridCell => ({
    row,
    column,
    result: evaluationResult(
      `${row}-${column}`,
      {
        'eval/reward/pass_at_1': solved / 128,
        'eval/num_trajectories': 128,
        'eval/reward/succeeded_rollouts': solved,
        'eval/reward/mean': 0.1,
        ...passAtK,
      },
      { tokens: 1_200_000, cost: 1.2 },
    ) as EvaluationResult,
  });
  return comparisonGrid(
    [
      cell('medium', 'base', 78, { 'eval/reward/pass_at_1': 78 / 128, 'eval/reward/pass_at_2': 0.7, 'eval/reward/pass_at_4': 0.8 }),
      cell('medium', 'adapter', 108, { 'eval/reward/pass_at_1': 108 / 128, 'eval/reward/pass_at_2': 0.9, 'eval/reward/pass_at_4': 0.95 }),
      cell('low <b>x</b>', 'base', 19),
      cell('low <b>x</b>', 'adapter', 88),
      cell('high', 'base', 80),
    ],
    'base',
  );
}

const THEMES = {
  light: {
    '--vscode-editor-background': '#ffffff',
    '--vscode-foreground': '#3b3b3b',
    '--vscode-charts-blue': '#1a85ff',
    '--vscode-charts-purple': '#652d90',
    '--vscode-descriptionForeground': '#717171',
  },
  dark: {
    '--vscode-editor-background': '#1f1f1f',
    '--vscode-foreground': '#cccccc',
    '--vscode-charts-blue': '#3794ff',
    '--vscode-charts-purple': '#b180d7',
    '--vscode-descriptionForeground': '#9d9d9d',
  },
};

describe('evaluations: comparison page in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });
  after(() => browser?.close());

  it('a settings × models table with intervals, a delta column marked where it excludes zero, escaped labels and no script', async () => {
    const html = comparisonHtml('Sweep demo', grid(), ['3 of 4 completed.'], 'N');
    assert.doesNotMatch(html, /<script/);
    assert.match(html, /low &#60;b&#62;x&#60;\/b&#62;/);
    for (const [theme, vars] of Object.entries(THEMES)) {
      const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
      const problems = watchProblems(page);
      await page.setContent(html);
      await page.evaluate((v) => Object.entries(v).forEach(([k, value]) => document.documentElement.style.setProperty(k, value)), vars);
      const rows = await page.$$eval('tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? '')));
      assert.equal(rows.length, 3);
      assert.match(rows[0][1], /^60\.9 % \[52\.3 %, 69\.0 %\]/);
      assert.match(rows[0][3], /▲ \+23\.4 points/);
      assert.match(rows[1][0], /^low <b>x<\/b>$/, 'the label is text, not markup');
      assert.match(rows[2][2], /not run or not completed/);
      // pass@k curves only for the row that logged k > 1: a line per model, rising with k (smaller y is higher).
      const curves = await page.$$eval('figure', (figures) =>
        figures.map((f) => ({
          caption: f.querySelector('figcaption')?.textContent,
          lines: [...f.querySelectorAll('polyline')].map((l) =>
            (l.getAttribute('points') ?? '').split(' ').map((p) => Number(p.split(',')[1])),
          ),
          right: f.getBoundingClientRect().right,
        })),
      );
      assert.deepEqual(
        curves.map((c) => [c.caption, c.lines.length, c.lines.map((ys) => ys.length)]),
        [['medium', 2, [3, 3]]],
      );
      for (const ys of curves[0].lines) assert.ok(ys[0] > ys[1] && ys[1] > ys[2], `pass@k does not rise with k: ${ys.join(', ')}`);
      assert.ok(curves[0].lines[1][0] < curves[0].lines[0][0], "the adapter's line is above the base model's");
      assert.ok(curves[0].right <= 900, `the pass@k chart ends at ${curves[0].right} px`);
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        'the page itself does not scroll sideways at 900 px',
      );
      const right = await page.$eval('thead th:last-child', (th) => th.getBoundingClientRect().right);
      assert.ok(right <= 900, `the delta column ends at ${right} px, outside a 900-px editor`);
      await page.screenshot({ path: path.join(shots, `comparison-${theme}.png`), fullPage: true });
      assert.deepEqual(problems, []);
      await page.close();
    }
  });
});
