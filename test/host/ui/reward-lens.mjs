// UI check of the reward CodeLens (#17, #38): in a fresh window (extension host restarted, nothing activated yet), click
// the lens as the editor draws it, twice, as the new user did; each click lists every scenario's score.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ceiling, frameShowing } from '../lib/wait.mjs';
import { palette } from './replay.mjs';
import { QUICK_INPUT } from '../lib/quick-input.mjs';
import { reopenWorkbench } from '../lib/session.mjs';

/**
 * Reloads the window the way a user does: a fresh extension host that activates the extension only by its events.
 * Seen with three CIs at once (load 60-80): after the reload the new extension host activated nothing for 10 minutes, in
 * all three lanes at once. When the test runner (an onStartupFinished extension) does not answer, the page is loaded again.
 */
export async function reloadWindow(page, host) {
  await page.evaluate(() => {
    window.mtrlBeforeReload = true;
  });
  await palette(page, '>Developer: Reload Window', 'Developer: Reload Window');
  await page.waitForFunction(() => !window.mtrlBeforeReload, undefined, { timeout: ceiling(60_000) });
  await page.locator('.monaco-workbench .part.editor').waitFor({ timeout: ceiling(60_000) });
  const started = await host('mtrl-test.ready', [], { timeoutMs: ceiling(60_000) }).catch(() => false);
  if (started) return;
  console.log('host: the extension host activated nothing after Reload Window; loading the page again');
  await reopenWorkbench(page);
  await host('mtrl-test.ready', [], { timeoutMs: ceiling(60_000) });
}

/** Opens a file from the Explorer, unfolding each of `folders` on the way (quick open may still be indexing right after a reload). */
export async function openFromExplorer(page, folders, file) {
  const row = (label) => page.locator('.explorer-folders-view .monaco-list-row', { hasText: new RegExp(`^${label}$`) }).first();
  // A view restored late after a reload can take the side bar back (seen on 1.103): show the Explorer again until it stays.
  const deadline = Date.now() + ceiling(30_000);
  for (;;) {
    if (!(await page.locator('.explorer-folders-view').isVisible())) await palette(page, '>View: Show Explorer', 'View: Show Explorer');
    const shown = await row(folders[0])
      .waitFor({ timeout: ceiling(2_500) })
      .then(() => true)
      .catch(() => false);
    if (shown) break;
    assert.ok(Date.now() < deadline, `the Explorer does not show ${folders[0]}`);
  }
  for (const folder of folders) {
    await row(folder).waitFor({ timeout: ceiling(30_000) });
    if ((await row(folder).getAttribute('aria-expanded')) !== 'true') await row(folder).click();
  }
  await row(file).click({ timeout: ceiling(15_000) });
  await page
    .locator('.tabs-container .tab', { hasText: file })
    .first()
    .waitFor({ timeout: ceiling(15_000) });
}

/** Moves the active editor's cursor to a line (1-based) with Go to Line, which scrolls it into view. */
async function goToLine(page, line) {
  assert.ok(line > 0, 'the reward file has no WordleGame class');
  const input = page.locator(`${QUICK_INPUT} input`);
  await page.keyboard.press('F1');
  await input.waitFor({ timeout: ceiling(5_000) });
  await input.fill(`:${line}`);
  await page
    .locator(`${QUICK_INPUT} .monaco-list-row`, { hasText: new RegExp(`line ${line}\\b`, 'i') })
    .first()
    .waitFor({ timeout: ceiling(10_000) });
  // The focused input takes the key from the keyboard: at load 60 a press through its locator waited out 30 s once.
  await page.keyboard.press('Enter');
  await page
    .locator('.statusbar-item', { hasText: new RegExp(`^Ln ${line}, Col`) })
    .first()
    .waitFor({ timeout: ceiling(10_000) });
}

const notifications = (page) => page.locator('.notifications-toasts .notification-list-item-message').allTextContents();

export const checks = [
  {
    name: '#17 reward lens: in a fresh window, clicking the rendered lens twice opens the scores view with a bar per scenario (no "Actual command not found")',
    async run({ page, workspace, screenshot, host }) {
      await palette(page, '>View: Close All Editors', 'View: Close All Editors');
      await reloadWindow(page, host);
      await openFromExplorer(page, [path.basename(workspace), 'reward'], 'wordle_reward.py');
      // The editor draws lenses of visible lines only: bring the reward's class into view, as a user scrolling to it.
      const text = readFileSync(path.join(workspace, 'reward/wordle_reward.py'), 'utf8').split('\n');
      await goToLine(page, text.findIndex((line) => /^class WordleGame\b/.test(line)) + 1);
      // The lens as the editor draws it: it appears once Python has scored the Wordle pack's scenarios.
      const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: /solve@1/ }).first();
      await lens.waitFor({ timeout: ceiling(90_000) }).catch(async (error) => {
        const drawn = await page.locator('.monaco-editor .codelens-decoration').allTextContents();
        throw new Error(
          `no reward lens drawn; lenses: ${drawn.join(' | ') || '(none)'}; notifications: ${(await notifications(page)).join(' | ') || '(none)'}`,
          {
            cause: error,
          },
        );
      });
      await screenshot('reward-lens-drawn');
      const tab = page
        .locator('.tabs-container .tab', { hasText: `Reward scores: ${path.basename(workspace)}/reward/wordle_reward.py` })
        .first();
      for (let click = 1; click <= 2; click++) {
        await lens.click();
        await tab.waitFor({ timeout: ceiling(60_000) }).catch(async (error) => {
          throw new Error(
            `click ${click}: no scores view after clicking the lens; notifications: ${(await notifications(page)).join(' | ') || '(none)'}`,
            {
              cause: error,
            },
          );
        });
        const frame = await scoresFrame(page);
        const first = frame.locator('.scenario[data-scenario="solve@1"]');
        await first.locator('.score', { hasText: '1.56' }).waitFor({ timeout: ceiling(30_000) });
        assert.equal(await frame.locator('.scenario .bar').count(), 11, 'a bar per scenario');
        // Each scenario's transcript is the board's Wordle renderer: its tiles.
        await first.locator(':scope > summary').click();
        await first
          .locator('.tile.mark-G')
          .first()
          .waitFor({ timeout: ceiling(10_000) });
        const said = await notifications(page);
        assert.ok(!said.some((t) => /command not found/i.test(t)), `click ${click}: ${said.join(' | ')}`);
        await screenshot(`reward-lens-click-${click}`);
        if (click === 2) break;
        // Back to the file alone: the second click is on the lens as drawn again after the first.
        await tab.click({ button: 'middle' });
        await tab.waitFor({ state: 'detached', timeout: ceiling(15_000) });
        await page
          .locator('.tabs-container .tab.active', { hasText: 'wordle_reward.py' })
          .first()
          .waitFor({ timeout: ceiling(15_000) });
        await lens.waitFor({ timeout: ceiling(60_000) });
      }
    },
  },
];

/** The scores view's inner frame, once it draws its scenarios. */
export function scoresFrame(page, timeoutMs = ceiling(60_000)) {
  return frameShowing(page, 'a webview frame showing the reward scores', (frame) => frame.locator('.scenario .track'), { timeoutMs });
}
