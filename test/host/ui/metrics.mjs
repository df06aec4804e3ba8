// UI checks of the metrics view (#16) in the workbench: the view at a 900-px editor in a light and a dark theme (screenshots),
// and a click on the reward curve opening the replay board at that step (its reload: restore.mjs).
import assert from 'node:assert/strict';
import { ceiling, until } from '../lib/wait.mjs';
import { palette } from './replay.mjs';
import { QUICK_INPUT } from '../lib/quick-input.mjs';
import { POLL_MS } from '../lib/session.mjs';

export const COMPLETED = 'wordle-gptoss20b-grpo-100steps';
const RUNNING = 'wordle-gptoss20b-grpo-lr-sweep';

/** The metrics view's inner frame once it has drawn the reward chart of `job`. */
export function metricsFrame(page, job, timeoutMs = ceiling(240_000)) {
  const drawn = (frame) =>
    frame.evaluate(
      (name) =>
        [...document.querySelectorAll('.jobs .job strong')].some((el) => el.textContent === name) &&
        [...document.querySelectorAll('.u-title')].some((el) => el.textContent === 'Reward per step') &&
        !document.querySelector('vscode-progress-ring'),
      job,
    );
  return until(
    `a metrics view drawing the reward chart of ${job}`,
    async () => {
      for (const frame of page.frames()) if (await drawn(frame).catch(() => false)) return frame;
      return undefined;
    },
    { timeoutMs },
  );
}

/** Opens Show Metrics from the palette and picks `job` in its multi-select list. */
export async function showMetrics(page, job) {
  await palette(page, '>MTRL: Show Metrics', 'MTRL: Show Metrics');
  const input = page.locator(`${QUICK_INPUT} input`);
  const row = page.locator(`${QUICK_INPUT} .monaco-list-row`, { hasText: job }).first();
  await row.waitFor({ timeout: ceiling(60_000) });
  await input.fill(job);
  await row.locator('.quick-input-list-checkbox, input[type=checkbox], .monaco-checkbox').first().click();
  await input.press('Enter');
  await page
    .locator('.tabs-container .tab', { hasText: `Metrics: ${job}` })
    .first()
    .waitFor({ timeout: ceiling(30_000) });
}

async function closeEditors(page) {
  await palette(page, '>View: Close All Editors', 'View: Close All Editors');
  await page
    .locator('.tabs-container .tab')
    .first()
    .waitFor({ state: 'detached', timeout: ceiling(10_000) });
}

/**
 * Picks the colour theme `label` and, given `kind` (light or dark), waits until the workbench wears it; returns the
 * label of the theme before. The name is typed and Enter pressed once its row has the focus: a click can land on a row
 * the list recycled as it scrolled, and choose another theme (the region picker did at load 30).
 */
export async function colorTheme(page, label, kind) {
  await palette(page, '>Preferences: Color Theme', 'Preferences: Color Theme');
  // The theme picker, never the palette closing with its own focused row ("Preferences: Color Theme").
  const widget = page.locator(QUICK_INPUT, { has: page.locator('input[placeholder^="Select Color Theme"]') });
  const focused = widget.locator('.monaco-list-row.focused');
  await focused.waitFor({ timeout: ceiling(10_000) });
  const before = (await focused.locator('.label-name').first().innerText()).trim();
  await widget.locator('input').fill(label);
  await widget.locator('.monaco-list-row.focused', { hasText: label }).waitFor({ timeout: ceiling(10_000) });
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: ceiling(10_000) });
  if (kind)
    await page.waitForFunction(
      (light) => document.querySelector('.monaco-workbench')?.classList.contains(light ? 'vs' : 'vs-dark'),
      kind === 'light',
      { timeout: ceiling(10_000) },
    );
  return before;
}

/**
 * Waits until the page's charts are drawn in the foreground `want` (the workbench's, else the page's own); a timeout
 * says what each held, so a run that fails shows whether the page or its canvas lagged.
 */
async function chartsInForeground(frame, want) {
  const read = () =>
    frame.evaluate(() => ({
      page: getComputedStyle(document.body).getPropertyValue('--vscode-foreground').trim(),
      chart: document.querySelector('.chart')?.dataset.foreground,
      charts: document.querySelectorAll('.chart').length,
    }));
  try {
    await frame.waitForFunction(
      (wanted) => {
        const fg = getComputedStyle(document.body).getPropertyValue('--vscode-foreground').trim();
        return fg && (wanted === undefined || fg === wanted) && document.querySelector('.chart')?.dataset.foreground === fg;
      },
      want,
      { timeout: ceiling(15_000), polling: POLL_MS },
    );
  } catch (error) {
    const seen = await read().catch((e) => ({ unreadable: e.message }));
    throw new Error(`the charts did not take the foreground ${want ?? 'of the page'}: ${JSON.stringify(seen)}`, { cause: error });
  }
}

/** Resizes the browser so the editor area is `width` px wide; returns the viewport to restore. */
async function editorWidth(page, width) {
  const viewport = page.viewportSize();
  const current = await page.locator('.part.editor').evaluate((el) => el.getBoundingClientRect().width);
  await page.setViewportSize({ width: Math.round(viewport.width + width - current), height: viewport.height });
  await page.waitForFunction((w) => Math.abs(document.querySelector('.part.editor').getBoundingClientRect().width - w) < 2, width, {
    timeout: ceiling(10_000),
  });
  return viewport;
}

/** What a screenshot must show: every chart inside the page width, and the axis text in the theme's foreground. */
async function layout(frame) {
  return frame.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const charts = [...document.querySelectorAll('.chart .uplot')].map((el) => el.getBoundingClientRect());
    return {
      width,
      charts: charts.length,
      overflowing: charts.filter((r) => r.right > width + 0.5 || r.left < 0).length,
      scrolls: document.documentElement.scrollWidth > width + 1,
      // A wrapped toolbar has an item starting below the bottom of the first one.
      toolbarWraps: (() => {
        const items = [...document.querySelector('.toolbar').children].map((el) => el.getBoundingClientRect());
        return items.some((r) => r.top >= items[0].bottom);
      })(),
      foreground: getComputedStyle(document.body).getPropertyValue('--vscode-foreground').trim(),
    };
  });
}

const TRUNCATED = 'wordle-grpo-responses-cut';

export const checks = [
  {
    name: 'metrics view marks a health finding at its step (truncation at step 12) at a 900-px editor, light and dark (screenshots)',
    async run({ page, emulatorUrl, screenshot, host }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no MLflow run';
      // The seeded health jobs are in us-west-2, which the palette's job list (the current region) does not offer.
      await host('mtrl.showMetrics', [{ jobName: TRUNCATED, category: 'AgentRFT', region: 'us-west-2' }]);
      const restore = await editorWidth(page, 900);
      try {
        const seen = {};
        for (const [theme, name] of [
          ['light', 'Light Modern'],
          ['dark', 'Dark Modern'],
        ]) {
          await colorTheme(page, name, theme);
          const frame = await metricsFrame(page, TRUNCATED);
          const marked = frame.locator('.chart[data-markers="12"]');
          await marked.waitFor({ timeout: ceiling(30_000) });
          assert.equal(await marked.locator('.u-title').textContent(), 'rollout/tokens/response_max');
          assert.match(
            await marked.locator('.finding').first().innerText(),
            /truncation at step 12: The longest response reached sampling_max_tokens \(4,096\)/,
          );
          // The page takes the theme after the workbench: wait for the workbench's foreground there, charts redrawn in it.
          const workbench = await page.evaluate(() =>
            getComputedStyle(document.querySelector('.monaco-workbench')).getPropertyValue('--vscode-foreground').trim(),
          );
          await chartsInForeground(frame, workbench);
          seen[theme] = workbench;
          await marked.scrollIntoViewIfNeeded();
          await marked.locator('.finding').first().hover();
          await screenshot(`metrics-health-${theme}-900px`);
        }
        assert.notEqual(seen.light, seen.dark, 'the two themes gave the workbench the same foreground');
      } finally {
        await page.setViewportSize(restore);
        await closeEditors(page);
      }
    },
  },
  {
    name: 'metrics view at a 900-px editor in a light and a dark theme: charts fit, colours follow the theme (screenshots)',
    async run({ page, emulatorUrl, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no MLflow run';
      await showMetrics(page, COMPLETED);
      const restore = await editorWidth(page, 900);
      try {
        const seen = {};
        for (const [theme, name] of [
          ['light', 'Light Modern'],
          ['dark', 'Dark Modern'],
        ]) {
          await colorTheme(page, name, theme);
          const frame = await metricsFrame(page, COMPLETED);
          // The charts redraw on a theme change: wait for the axis colour the page reads to match the new theme.
          await chartsInForeground(frame);
          // Away from the tab, whose hover tooltip would cover the toolbar in the screenshot.
          await frame.locator('.hint').first().hover();
          const shown = await layout(frame);
          seen[theme] = shown.foreground;
          await screenshot(`metrics-${theme}-900px`);
          assert.ok(Math.abs(shown.width - 900) < 40, `the view is ${shown.width} px wide`);
          assert.ok(shown.charts >= 4, `${shown.charts} charts`);
          assert.equal(shown.toolbarWraps, false, 'the toolbar wraps onto a second line');
          assert.equal(shown.overflowing, 0, 'a chart is wider than the editor');
          assert.equal(shown.scrolls, false, 'the view scrolls sideways');
        }
        assert.notEqual(seen.light, seen.dark, 'the two themes gave the page the same foreground');
      } finally {
        await page.setViewportSize(restore);
        await closeEditors(page);
      }
    },
  },
  {
    name: 'metrics view: a click on the reward curve opens the replay board at that step',
    async run({ page, emulatorUrl }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no MLflow run';
      await showMetrics(page, RUNNING);
      const frame = await metricsFrame(page, RUNNING);
      const over = frame.locator('.chart', { has: frame.locator('.u-title', { hasText: 'Reward per step' }) }).locator('.u-over');
      const box = await over.boundingBox();
      // A third of the way along: a step in the middle of what the running job has logged.
      await over.hover({ position: { x: box.width / 3, y: box.height / 2 } });
      // The legend follows the pointer on the chart's next frame: wait for the step it names, not a read at once.
      const legend = frame.locator('.u-legend .u-series').first().locator('.u-value');
      let step;
      await until(
        'the legend to show the step under the pointer',
        async () => {
          step = Number(await legend.textContent({ timeout: ceiling(1_000) }));
          return Number.isInteger(step) && step > 0;
        },
        { timeoutMs: ceiling(10_000) },
      ).catch(() => undefined);
      assert.ok(Number.isInteger(step) && step > 0, `the legend shows step ${step}`);
      await over.click({ position: { x: box.width / 3, y: box.height / 2 } });
      await page
        .locator('.tabs-container .tab', { hasText: `Rollouts: ${RUNNING}` })
        .first()
        .waitFor({ timeout: ceiling(30_000) });
      let shown = '';
      await until(
        `the board to show step ${step}`,
        async () => {
          // Read at once in every frame: a waited read would cost its timeout in each frame without a board.
          for (const f of page.frames()) {
            const text = await f.evaluate(() => document.querySelector('.step-shown')?.textContent ?? null).catch(() => null);
            if (text) shown = text.trim();
          }
          return shown.startsWith(`step ${step}:`);
        },
        { timeoutMs: ceiling(180_000) },
      ).catch(() => undefined);
      assert.match(shown, new RegExp(`^step ${step}:`), `the board shows "${shown}"`);
      await closeEditors(page);
    },
  },
];
