// UI check of the Agent Runtimes view (#8): the seeded runtimes with status, the inline Smoke Test action, the result on the row and the report preview.
import assert from 'node:assert/strict';
import { palette } from './replay.mjs';
import { clickInlineAction } from '../lib/menu.mjs';
import { ceiling, until } from '../lib/wait.mjs';
import { QUICK_INPUT } from '../lib/quick-input.mjs';

const RUNTIME = 'wordle_agent';
const runtimesPane = (page) =>
  page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Agent Runtimes' }) }).first();
const labels = (page) =>
  runtimesPane(page)
    .locator('.monaco-list-row')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''));

export const checks = [
  {
    name: 'agent runtimes view lists runtimes with status; the inline Smoke Test shows the verdict on the row and opens the report',
    async run({ page, emulatorUrl, screenshot, host }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no runtimes to show';
      const header = page.locator('.part.sidebar .pane-header', { hasText: 'Agent Runtimes' }).first();
      // The view's focus command: a click on the MTRL icon hides the side bar when MTRL is already its container.
      if (!(await header.isVisible())) await host('mtrl.runtimes.focus');
      await header.waitFor({ timeout: ceiling(20_000) });
      if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
      const row = runtimesPane(page)
        .locator('.monaco-list-row', { hasText: /^wordle_agent/ })
        .filter({ hasNotText: 'no_server' })
        .first();
      await row.waitFor({ timeout: ceiling(30_000) });
      // Every row, read once the view has drawn them all (the one above may come first).
      let before = [];
      const noServer = () => before.some((l) => /^wordle_agent_no_server/.test(l));
      const ready = () =>
        before.some((l) => l.startsWith(`${RUNTIME},`) || l.startsWith(`${RUNTIME} `)) || before.some((l) => /READY/.test(l));
      await until(
        'the runtimes view to list both seeded runtimes',
        async () => {
          before = await labels(page);
          return noServer() && ready();
        },
        { timeoutMs: ceiling(10_000) },
      ).catch(() => undefined);
      assert.ok(noServer(), `rows: ${before.join(' | ')}`);
      assert.ok(ready(), `rows: ${before.join(' | ')}`);

      await clickInlineAction(page, row, 'Smoke Test Agent Runtime');
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('.part.sidebar .monaco-list-row')].some(
            (e) =>
              /^wordle_agent\b(?!_)/.test(e.getAttribute('aria-label') ?? '') &&
              /READY · smoke passed just now/.test(e.getAttribute('aria-label') ?? ''),
          ),
        undefined,
        { timeout: ceiling(30_000) },
      );
      await page
        .locator('.tab', { hasText: 'Smoke test wordle_agent-AbCdEf1234' })
        .first()
        .waitFor({ timeout: ceiling(20_000) });
      // The Markdown preview is a webview: the outer frame, then its active frame.
      const preview = page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
      const rendered = preview.locator('h1', { hasText: 'Smoke test: passed' });
      for (let attempt = 1; ; attempt++) {
        try {
          await rendered.waitFor({ timeout: ceiling(20_000) });
          break;
        } catch (error) {
          // VS Code's own Markdown preview stayed blank once on a busy machine, the report open in it: asked to draw again.
          if (attempt === 3) throw error;
          await palette(page, '>Markdown: Refresh Preview', 'Markdown: Refresh Preview');
        }
      }
      await preview
        .locator('code, pre', { hasText: 'Could not find job' })
        .first()
        .waitFor({ timeout: ceiling(5_000) });
      await screenshot('agent-runtimes');
    },
  },
  {
    name: 'smoke test from the palette lists the runtimes with status and last result, and Escape cancels',
    async run({ page, emulatorUrl, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no runtimes to pick';
      // The previous check's report preview is a webview that can take focus and hide a new quick pick.
      await palette(page, '>View: Close All Editors', 'View: Close All Editors');
      await palette(page, '>MTRL: Smoke Test Agent Runtime', 'Smoke Test Agent Runtime');
      const picker = page.locator(QUICK_INPUT, { hasText: 'Smoke Test Agent Runtime' });
      const noServer = picker.locator('.monaco-list-row', { hasText: 'wordle_agent_no_server' }).first();
      await noServer.waitFor({ timeout: ceiling(20_000) });
      // Its status and last result, waited for: the row may be drawn before its description.
      const status = /READY · not smoke-tested|READY · smoke (passed|failed)/;
      await noServer
        .filter({ hasText: status })
        .waitFor({ timeout: ceiling(10_000) })
        .catch(() => undefined);
      assert.match(await noServer.innerText(), status);
      await picker
        .locator('.monaco-list-row', { hasText: 'Enter a runtime ARN' })
        .first()
        .waitFor({ timeout: ceiling(5_000) });
      await screenshot('smoke-runtime-picker');
      await page.keyboard.press('Escape');
      await picker.waitFor({ state: 'hidden', timeout: ceiling(10_000) });
    },
  },
];
