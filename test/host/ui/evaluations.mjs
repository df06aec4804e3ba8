// UI checks of evaluation sweeps (#18): the sweep node's progress and actions in the Jobs view, and the comparison view in the workbench, light and dark at a 900 px editor.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { clickInlineAction, clickMenuItem } from '../lib/menu.mjs';
import { ceiling, frameShowing } from '../lib/wait.mjs';
import { colorTheme } from './metrics.mjs';
import { palette } from './replay.mjs';
import { POLL_MS } from '../lib/session.mjs';

const REGION = 'us-east-1';
const ACCOUNT = '111122223333';
const SWEEP = 'ui-sweep';
const BASE = 'wordle-eval-base-gptoss20b';
const TRAINED = 'wordle-eval-trained-gptoss20b';

const jobsPane = (page) => page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Jobs' }) }).first();
// A job by its accessible name, which holds the whole job name (the label is cut to what tells it from its neighbours).
const jobsRow = (page, text) =>
  typeof text === 'string'
    ? jobsPane(page).locator(`.monaco-list-row[aria-label^="${text}"]`).first()
    : jobsPane(page).locator('.monaco-list-row', { hasText: text }).first();
const sweepRow = (page) => jobsPane(page).locator(`.monaco-list-row[aria-label^="Sweep ${SWEEP},"]`).first();

async function showJobsView(page, host) {
  const header = page.locator('.part.sidebar .pane-header', { hasText: 'Jobs' }).first();
  // The view's own focus command: a click on the MTRL icon hides the side bar when MTRL is already its container (a
  // check before may have left it so, as the reward lens's reload did in CI).
  if (!(await header.isVisible())) await host('mtrl.jobs.focus');
  await header.waitFor({ timeout: ceiling(20_000) });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
}

/** Waits until the sweep row's accessible label (label, then its description) matches. */
async function sweepLabel(page, pattern) {
  const handle = await page.waitForFunction(
    ([prefix, source]) =>
      [...document.querySelectorAll('.part.sidebar .monaco-list-row')]
        .map((e) => e.getAttribute('aria-label') ?? '')
        .find((label) => label.startsWith(prefix) && new RegExp(source).test(label)),
    [`Sweep ${SWEEP},`, pattern.source],
    { timeout: ceiling(60_000) },
  );
  return handle.jsonValue();
}

const sweepAction = (page, name) => clickInlineAction(page, sweepRow(page), name);

/** Drags the side bar's edge so the sweep's description is readable in the screenshot. */
async function resizeSidebar(page, by) {
  const box = await page.locator('.part.sidebar').boundingBox();
  const x = box.x + box.width + 1;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + by, y, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(
    (width) => Math.abs(document.querySelector('.part.sidebar').getBoundingClientRect().width - width) <= 2,
    box.width + by,
    { timeout: ceiling(10_000) },
  );
}

/** The webview frame whose page shows `title` as its heading. */
const comparisonFrame = (page, title, timeoutMs = ceiling(30_000)) =>
  frameShowing(page, `a webview frame showing "${title}"`, (frame) => frame.locator('h1', { hasText: title }), { timeoutMs });

/** Relative luminance of the page's background, 0 (black) to 1 (white). */
const backgroundLuminance = (frame) =>
  frame.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  });

export const checks = [
  {
    name: 'evaluation sweeps: the sweep node in the Jobs view shows done / running / waiting, cost and state; Pause, Cancel and Compare act on it',
    async run({ page, workspace, emulatorUrl, screenshot, host }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no evaluation to launch';
      const sweep = {
        name: SWEEP,
        region: REGION,
        roleArn: `arn:aws:iam::${ACCOUNT}:role/MtrlJobRole`,
        baseModelArn: `arn:aws:sagemaker:${REGION}:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b`,
        evaluationUri: 's3://mtrl-demo/wordle/val.jsonl',
        outputPath: 's3://mtrl-demo/eval',
        models: [{ label: 'base' }, { label: 'adapter', trainingJob: 'wordle-gptoss20b-grpo-100steps' }],
        runtimes: [{ label: 'medium', runtimeArn: `arn:aws:bedrock-agentcore:${REGION}:${ACCOUNT}:runtime/wordle_agent-AbCdEf1234` }],
        grid: { temperature: ['1.0', '0.6'] },
      };
      const file = `${SWEEP}.mtrl-sweep.json`;
      writeFileSync(path.join(workspace, file), JSON.stringify(sweep, null, 2));
      await palette(page, file, file);
      await page
        .locator('.tabs-container .tab', { hasText: file })
        .first()
        .waitFor({ timeout: ceiling(15_000) });
      const start = page.locator('.codelens-decoration a', { hasText: 'Start sweep: 4 evaluations' }).first();
      await start.waitFor({ timeout: ceiling(30_000) });
      // The tab's hover, left by the quick open, would take the click.
      await page.mouse.move(1200, 820);
      await page.keyboard.press('Escape');
      await page.waitForFunction(
        () => [...document.querySelectorAll('.context-view')].every((e) => e.getBoundingClientRect().height === 0),
        undefined,
        {
          timeout: ceiling(10_000),
        },
      );
      await start.click();

      await showJobsView(page, host);
      // Launched at once when the account's evaluation slot is free; an evaluation of another suite may still hold it.
      const running = await sweepLabel(page, /\d\/4 done · [01] running · [34] waiting · \$\d+\.\d\d$/);
      const [done, active, waiting] = running
        .match(/(\d)\/4 done · (\d) running · (\d) waiting/)
        .slice(1)
        .map(Number);
      assert.equal(done + active + waiting, 4, running);
      await sweepRow(page).click();
      await page.keyboard.press('ArrowRight');
      await jobsRow(page, /adapter · .*temperature=0\.6/).waitFor({ timeout: ceiling(20_000) });
      await resizeSidebar(page, 260);
      await screenshot('sweep-node');
      await resizeSidebar(page, -260);

      await sweepAction(page, 'Pause Sweep');
      await sweepLabel(page, /· paused$/);
      await sweepAction(page, 'Cancel Sweep');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: ceiling(10_000) });
      assert.match(await dialog.innerText(), /Cancel the sweep\?/);
      await dialog.locator('.monaco-button', { hasText: 'Cancel Sweep' }).click();
      await sweepLabel(page, /· cancelled$/);

      await sweepAction(page, 'Compare Sweep');
      const frame = await comparisonFrame(page, `Sweep ${SWEEP}`);
      const text = await frame.locator('body').innerText();
      assert.match(text, /No completed evaluation to compare yet|settings/);
      assert.match(text, /\d of 4 evaluations completed/);

      // Remove Sweep from Jobs View, as a user does it: the node goes at once (its jobs stay). One try: the view must not
      // redraw the row under the menu (a removal that fails here is the product's bug, not the test's).
      await palette(page, '>View: Close All Editors', 'View: Close All Editors');
      await showJobsView(page, host);
      await sweepRow(page).click({ button: 'right' });
      await clickMenuItem(page, 'Remove Sweep from Jobs View');
      await sweepRow(page).waitFor({ state: 'detached', timeout: ceiling(10_000) });
    },
  },
  {
    name: 'evaluation sweeps: Compare Evaluations on two selected jobs shows pass@1 with intervals and a marked delta, light and dark at a 900 px editor',
    async run({ page, emulatorUrl, screenshot, host }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no evaluations to compare';
      await showJobsView(page, host);
      await jobsRow(page, BASE).waitFor({ timeout: ceiling(30_000) });
      await jobsRow(page, TRAINED).waitFor({ timeout: ceiling(30_000) });
      // One try: with polling held and no sweep ticking, nothing redraws the rows between the clicks and the menu.
      await jobsRow(page, BASE).click();
      await jobsRow(page, TRAINED).click({ modifiers: ['ControlOrMeta'] });
      await jobsRow(page, TRAINED).click({ button: 'right' });
      await clickMenuItem(page, 'Compare Evaluations');
      const frame = await comparisonFrame(page, 'Compare 2 evaluations');

      const header = await frame.locator('thead th').allInnerTexts();
      assert.deepEqual(header.slice(0, 2), ['settings', 'base model']);
      assert.match(header[2], /^adapter /);
      assert.match(header[3], /^Δ adapter .* − base model$/);
      const cells = await frame.locator('tbody tr').first().locator('th, td').allInnerTexts();
      for (const cell of cells.slice(1, 3)) {
        const [pass, lo, hi] =
          cell
            .match(/^(\d+\.\d) %\s*\[(\d+\.\d) %, (\d+\.\d) %\]/)
            ?.slice(1)
            .map(Number) ?? [];
        assert.ok(lo < pass && pass < hi, `pass@1 outside its interval in "${cell}"`);
        assert.match(cell, /\d+\/\d+ solved/);
      }
      assert.match(cells[3], /^▲\s*\+\d+\.\d\s*points/);
      assert.match(cells[3], /more than noise/);
      assert.equal(await frame.locator('tbody .sig').count(), 1, 'the delta whose interval excludes zero is marked');
      const fills = await frame.locator('svg .bar').evaluateAll((bars) => bars.map((b) => getComputedStyle(b).fill));
      assert.equal(new Set(fills).size, 2, `the two models' bars share a colour: ${fills.join(', ')}`);
      for (const fill of fills) assert.match(fill, /^rgb\(/, `a bar is translucent: ${fill}`);

      const viewport = page.viewportSize();
      let before;
      try {
        // The comparison alone in a 900 px editor: side bar and panel closed, the window narrowed by the difference.
        await palette(page, '>Notifications: Clear All Notifications', 'Clear All Notifications');
        await palette(page, '>View: Close Primary Side Bar', 'View: Close Primary Side Bar');
        await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: ceiling(10_000) });
        const editor = await page.locator('.part.editor').boundingBox();
        await page.setViewportSize({ width: Math.round(viewport.width - (editor.width - 900)), height: viewport.height });
        await page.waitForFunction(
          () => Math.abs(document.querySelector('.part.editor').getBoundingClientRect().width - 900) <= 2,
          undefined,
          {
            timeout: ceiling(10_000),
          },
        );
        for (const [theme, label] of [
          ['light', 'Light Modern'],
          ['dark', 'Dark Modern'],
        ]) {
          const previous = await colorTheme(page, label, theme);
          before ??= previous;
          const shown = await comparisonFrame(page, 'Compare 2 evaluations');
          // The webview gets the new theme's colours a moment after the workbench.
          await shown
            .waitForFunction(
              (light) => {
                const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number);
                return light === r + g + b > 382;
              },
              theme === 'light',
              { timeout: ceiling(10_000), polling: POLL_MS },
            )
            .catch(() => undefined);
          const luminance = await backgroundLuminance(shown);
          assert.ok(theme === 'light' ? luminance > 0.7 : luminance < 0.3, `${theme} theme: background luminance ${luminance.toFixed(2)}`);
          const overflow = await shown.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          assert.ok(overflow <= 0, `the page is ${overflow} px wider than the 900 px editor`);
          await screenshot(`comparison-${theme}`);
        }
      } finally {
        if (before) await colorTheme(page, before);
        await page.setViewportSize(viewport);
        await palette(page, '>View: Close All Editors', 'View: Close All Editors');
        await showJobsView(page, host);
      }
    },
  },
];
