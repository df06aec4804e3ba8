// UI checks through the page: what a user sees of the product in the workbench.
import assert from 'node:assert/strict';
import { ceiling } from '../lib/wait.mjs';
import { QUICK_INPUT } from '../lib/quick-input.mjs';

/** Commands the palette always lists: contributed, with no `when` of their own (those depend on the editor) and no `enablement`. */
function paletteCommands(manifest) {
  const conditional = new Set((manifest.contributes?.menus?.commandPalette ?? []).filter((m) => m.when).map((m) => m.command));
  return (manifest.contributes?.commands ?? []).filter((c) => !conditional.has(c.command) && !c.enablement);
}

function contributesViews(manifest) {
  return (manifest.contributes?.views?.mtrl ?? []).length > 0;
}

const activityBarItem = (page) => page.locator('.part.activitybar .action-item a[aria-label^="MTRL"]');

export const checks = [
  {
    name: 'the packaged extension does not contribute the test-only reset command (the harness registers it by environment)',
    async run({ manifest, host }) {
      const text = JSON.stringify(manifest);
      assert.doesNotMatch(text, /mtrl\.test\./, 'the packaged package.json mentions a test-only command');
      // Under the harness (MTRL_TEST_HOOKS=1 on the server) the command exists: it is what resets each check.
      assert.equal(await host('mtrl-test.resetProduct', [{}]), true);
    },
  },
  {
    name: 'the MTRL container is in the activity bar once a view is contributed',
    async run({ page, manifest, screenshot }) {
      const item = activityBarItem(page);
      if (!contributesViews(manifest)) {
        // VS Code hides a container without views: assert that truth instead of a fake pass.
        assert.equal(await item.count(), 0, 'no view is contributed to "mtrl", yet the container shows');
        return 'skipped: no view contributes to the "mtrl" container yet';
      }
      await item.first().waitFor({ timeout: ceiling(20_000) });
      const title = page.locator('.part.sidebar .composite.title', { hasText: 'MTRL' }).first();
      // Clicking the item of the open container would close it (an earlier check may have opened it).
      if (!(await title.isVisible())) await item.first().click();
      await title.waitFor({ timeout: ceiling(10_000) });
      await screenshot('mtrl-container');
    },
  },
  {
    name: 'the command palette lists every unconditional "MTRL:" command',
    async run({ page, manifest, screenshot }) {
      const commands = paletteCommands(manifest);
      if (!commands.length) return 'skipped: the product contributes no palette command yet';
      const missing = [];
      await page.keyboard.press('F1');
      const input = page.locator(`${QUICK_INPUT} input`);
      await input.waitFor({ timeout: ceiling(10_000) });
      for (const command of commands) {
        const label = `${command.category ? `${command.category}: ` : ''}${command.title}`;
        await input.fill(`>${label}`);
        const row = page.locator(`${QUICK_INPUT} .monaco-list-row`, { hasText: command.title });
        try {
          await row.first().waitFor({ timeout: ceiling(3_000) });
        } catch {
          missing.push(label);
        }
      }
      await input.fill('>MTRL:');
      await page
        .locator(`${QUICK_INPUT} .monaco-list-row`, { hasText: 'MTRL:' })
        .first()
        .waitFor({ timeout: ceiling(10_000) });
      await screenshot('command-palette');
      await page.keyboard.press('Escape');
      assert.deepEqual(missing, [], `the palette lacks ${missing.join(', ')}`);
    },
  },
];
