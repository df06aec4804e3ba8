// UI check of the AWS connection (#2): the status bar names the emulator and the region, and opens the profile picker.
import assert from 'node:assert/strict';
import { ceiling } from '../lib/wait.mjs';
import { QUICK_INPUT } from '../lib/quick-input.mjs';

export const checks = [
  {
    name: 'aws status bar shows "MTRL: emulator @ us-east-1" and opens the profile picker',
    async run({ page, emulatorUrl, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so the endpoint is not loopback';
      const item = page.locator('.statusbar-item', { hasText: 'MTRL: emulator @ us-east-1' }).first();
      await item.waitFor({ timeout: ceiling(30_000) });
      assert.match((await item.textContent()) ?? '', /MTRL: emulator @ us-east-1/);
      await item.click();
      const picker = page.locator(QUICK_INPUT, { hasText: 'Choose AWS Profile' });
      // Its rows come after its title (a second message from the extension host): waited for, not counted at once.
      await picker
        .locator('.monaco-list-row', { hasText: '(default credential chain)' })
        .first()
        .waitFor({ timeout: ceiling(10_000) });
      if (screenshot) await screenshot('aws-status-bar');
      await page.keyboard.press('Escape');
    },
  },
];
