import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { evaluationResult, type EvaluationResult } from '../../../../src/core/evaluation/compare';
import { comparisonGrid, type GridCell } from '../../../../src/core/evaluation/grid';
import { COMPARISON_VIEW, comparisonState, type ComparisonState } from '../../../../src/shared/comparison';
import { AppServer, launchChromium, watchProblems } from '../browser';
import { ceiling } from '../../../host/lib/ceiling';

const root = path.resolve(__dirname, '../../../..');
const shots = path.join(root, 'test-results');

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

describe('evaluations: comparison view in Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  before(async function () {
    this.timeout(ceiling(120_000));
    server = await AppServer.start(COMPARISON_VIEW);
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(name: string, initial: ComparisonState) {
    const { url, html } = server.page(name, initial);
    const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
    const problems = watchProblems(page);
    await page.goto(url);
    await page.locator('h1').waitFor();
    return { page, problems, html };
  }

  it('a settings × models table with intervals, a delta column marked where it excludes zero, labels as text, light and dark at 900 px', async function () {
    this.timeout(ceiling(60_000));
    for (const [theme, vars] of Object.entries(THEMES)) {
      const { page, problems, html } = await open(`grid-${theme}`, comparisonState('Sweep demo', grid(), ['3 of 4 completed.']));
      assert.doesNotMatch(html, /<b>x/, 'the label reaches the page only as JSON, never as markup');
      const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      assert.match(csp ?? '', /^default-src 'none'; script-src 'nonce-[^']+';/, 'the CSP admits only the nonce’d bundle');
      await page.evaluate((v) => Object.entries(v).forEach(([k, value]) => document.documentElement.style.setProperty(k, value)), vars);
      assert.equal(await page.locator('h1').innerText(), 'Sweep demo');
      const rows = await page.$$eval('tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? '')));
      assert.equal(rows.length, 3);
      assert.match(rows[0][1], /^60\.9 % \[52\.3 %, 69\.0 %\]/);
      assert.match(rows[0][3], /▲ \+23\.4 points/);
      assert.match(rows[1][0], /^low <b>x<\/b>$/, 'the label is text, not markup');
      assert.equal(await page.locator('tbody b').count(), 0);
      assert.match(rows[2][2], /not run or not completed/);
      assert.equal(await page.locator('tbody .sig').count(), 2, 'both deltas whose interval excludes zero are marked');
      const fills = await page.locator('svg .bar').evaluateAll((bars) => bars.map((b) => getComputedStyle(b).fill));
      assert.equal(new Set(fills).size, 2, `the two models' bars share a colour: ${fills.join(', ')}`);
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
      // The table's scroll region is reached with Tab, so a keyboard user can scroll a wide comparison.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.className), 'scroll');
      assert.deepEqual(problems, []);
      await page.close();
    }
  });

  it('says there is nothing to compare yet, then draws the grid the extension sends in place', async function () {
    this.timeout(ceiling(60_000));
    const empty = comparisonState('Sweep demo', comparisonGrid([]), ['0 of 4 evaluations completed, 1 running, 3 waiting.']);
    const { page, problems } = await open('empty', empty);
    assert.match(await page.locator('body').innerText(), /No completed evaluation to compare yet[\s\S]*0 of 4 evaluations completed/);
    assert.equal(await page.locator('table').count(), 0);
    await page.evaluate(
      (state) => {
        (window as unknown as { mtrlHost: { notify(m: string, p: unknown): void } }).mtrlHost.notify('state', state);
      },
      comparisonState('Sweep demo', grid(), ['4 of 4 evaluations completed.']),
    );
    await page.locator('tbody tr').nth(2).waitFor();
    assert.match(await page.locator('body').innerText(), /4 of 4 evaluations completed/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
