// UI check of the reward CodeLens (#17): click the lens as drawn in the editor, as a new user does right after opening the file.
import assert from 'node:assert/strict';
import { palette } from './replay.mjs';

export const checks = [
  {
    name: 'reward lens: clicking the rendered lens opens the preview (no "Actual command not found")',
    async run({ page, screenshot }) {
      await palette(page, 'wordle_reward.py', 'wordle_reward.py');
      await page.locator('.tabs-container .tab', { hasText: 'wordle_reward.py' }).first().waitFor({ timeout: 15_000 });
      // The lens as the editor draws it; it reads "Reward preview…" until Python has scored the games.
      const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: /solve|loss|never|Reward preview/ }).first();
      await lens.waitFor({ timeout: 60_000 });
      // Click at once, then again after the scores arrive and the lenses refresh: both clicks must work.
      for (let click = 0; click < 2; click++) {
        await lens.click();
        const tab = page.locator('.tabs-container .tab', { hasText: /^Reward preview/ }).first();
        await tab.waitFor({ timeout: 60_000 }).catch(async () => {
          const toasts = await page.locator('.notifications-toasts .notification-list-item-message').allTextContents();
          throw new Error(`no preview tab after clicking the lens; notifications: ${toasts.join(' | ') || '(none)'}`);
        });
        const toasts = await page.locator('.notifications-toasts .notification-list-item-message').allTextContents();
        assert.ok(!toasts.some((t) => /Actual command not found/.test(t)), `notifications: ${toasts.join(' | ')}`);
        await screenshot(`reward-lens-click-${click + 1}`);
        await palette(page, '>View: Close All Editors', 'View: Close All Editors');
        await palette(page, 'wordle_reward.py', 'wordle_reward.py');
        await page
          .locator('.monaco-editor .codelens-decoration a', { hasText: /solve|loss|never|failed/ })
          .first()
          .waitFor({ timeout: 60_000 });
      }
    },
  },
];
