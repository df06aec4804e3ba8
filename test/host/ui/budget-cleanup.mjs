// UI checks on the running seeded job (before jobs.mjs stops it): the budget notification, and the Clean Up flow with its one confirmation.
import assert from 'node:assert/strict';
import { palette } from './replay.mjs';
import { heldToast } from '../lib/toasts.mjs';
import { ceiling } from '../lib/wait.mjs';
import { QUICK_INPUT } from '../lib/quick-input.mjs';

const RUNNING = 'wordle-gptoss20b-grpo-lr-sweep';
const widget = (page) => page.locator(QUICK_INPUT);
const rowOf = (page, text) => widget(page).locator('.monaco-list-row', { hasText: text }).first();
const toast = (page, text) => page.locator('.notification-toast', { hasText: text }).first();

const runCommand = (page, title) => palette(page, `>${title}`, title.replace(/^MTRL: /, ''));

/** Waits for the quick input whose title, placeholder or message matches, then returns its input. */
async function quickInput(page, pattern) {
  await page.waitForFunction(
    ([source, open]) => {
      const w = document.querySelector(open);
      if (!w || w.style.display === 'none') return false;
      const text = [
        w.querySelector('.quick-input-title')?.textContent,
        w.querySelector('input')?.getAttribute('placeholder'),
        w.querySelector('.quick-input-message')?.textContent,
      ].join(' ');
      return new RegExp(source).test(text);
    },
    [pattern.source, QUICK_INPUT],
    { timeout: ceiling(30_000) },
  );
  return widget(page).locator('input').first();
}

export const checks = [
  {
    name: "resources: budget guard: a budget below the running job's estimate brings Stop job / Raise budget; Raise budget takes a new one",
    async run({ page, emulatorUrl, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no running job';
      await runCommand(page, 'MTRL: Refresh Jobs');
      await runCommand(page, 'MTRL: Set Job Budget…');
      await quickInput(page, /Pick a running job/);
      await rowOf(page, RUNNING).click();
      const dollars = await quickInput(page, new RegExp(`Budget for ${RUNNING}`));
      await dollars.fill('nothing');
      await widget(page)
        .locator('.quick-input-message', { hasText: 'Enter the budget in US dollars' })
        .waitFor({ timeout: ceiling(10_000) });
      await dollars.fill('0.01');
      await page.keyboard.press('Enter');
      await quickInput(page, /passes \$0\.01/);
      await rowOf(page, 'Warn me').click();
      const warning = await heldToast(page, `Job ${RUNNING}'s estimated token cost`, ceiling(30_000));
      assert.match(await warning.innerText(), /passed its budget of \$0\.01/);
      await screenshot('budget-notification');
      assert.equal(await warning.locator('.monaco-button', { hasText: 'Stop job' }).count(), 1, 'no Stop job button');
      await warning.locator('.monaco-button', { hasText: 'Raise budget' }).click();
      const raised = await quickInput(page, new RegExp(`Budget for ${RUNNING}`));
      await raised.fill('100000');
      await page.keyboard.press('Enter');
      await quickInput(page, /passes \$100,000\.00/);
      await rowOf(page, 'Warn me').click();
      await widget(page).waitFor({ state: 'hidden', timeout: ceiling(10_000) });
    },
  },
  {
    name: 'resources view: the spend and each kind of resource as sections, the in-use runtime marked on its row',
    async run({ page, emulatorUrl }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no resources';
      const header = (name) => page.locator('.part.sidebar .pane-header', { hasText: name }).first();
      const expand = async (name, expanded) => {
        if ((await header(name).getAttribute('aria-expanded')) !== String(expanded)) await header(name).click();
      };
      if (!(await header('Resources').isVisible()))
        await page.locator('.part.activitybar .action-item a[aria-label^="MTRL"]').first().click();
      await header('Resources').waitFor({ timeout: ceiling(20_000) });
      // The Resources pane gets the side bar's height: its message and five sections do not fit a third of it.
      await expand('Jobs', false);
      await expand('Agent Runtimes', false);
      await expand('Resources', true);
      const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Resources' }) }).first();
      const row = (text) => pane.locator('.monaco-list-row', { hasText: text }).first();
      try {
        // Each section is drawn expanded; a click folds it once read, so the next one is in view.
        for (const section of ['Token spend per job', 'Agent runtimes', 'Job roles', 'MLflow apps', 'S3 prefixes']) {
          await row(section).waitFor({ timeout: ceiling(60_000) });
          if (section === 'Agent runtimes') {
            const runtime = row(/^wordle_agent(?!_)/);
            await runtime.waitFor({ timeout: ceiling(10_000) });
            // Who uses it, waited for: the row may be drawn before its description.
            const inUse = new RegExp(`in use by [^·]*${RUNNING}`);
            await runtime
              .filter({ hasText: inUse })
              .waitFor({ timeout: ceiling(10_000) })
              .catch(() => undefined);
            assert.match(await runtime.innerText(), inUse);
          }
          await row(section).click();
          await pane
            .locator('.monaco-list-row[aria-expanded="false"]', { hasText: section })
            .first()
            .waitFor({ timeout: ceiling(10_000) });
        }
      } finally {
        // The other checks read the Jobs and Agent Runtimes views at the side bar's default layout.
        await expand('Resources', false);
        await expand('Agent Runtimes', true);
        await expand('Jobs', true);
      }
    },
  },
  {
    name: 'resources: cleanup: review list with the in-use runtime marked, one confirmation naming the refusal, the prefix deleted, what remains said',
    async run({ page, emulatorUrl, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so nothing to clean up';
      await runCommand(page, 'MTRL: Clean Up Resources…');
      await quickInput(page, /review what to delete/);
      const runtime = rowOf(page, 'wordle_agent-AbCdEf1234');
      await runtime.waitFor({ timeout: ceiling(60_000) });
      // Other suites may have left their own jobs on the runtime (the sweep suite's evaluation): the running seeded job is among them.
      const refused = new RegExp(`in use by [^:]*${RUNNING}[^:]*: will be refused`);
      await runtime
        .filter({ hasText: refused })
        .waitFor({ timeout: ceiling(10_000) })
        .catch(() => undefined);
      assert.match(await runtime.innerText(), refused);
      await runtime.click();
      // The list draws only the rows in view (more runtimes push the prefixes below): filter to the prefix, checks stay.
      await page.locator(`${QUICK_INPUT} input`).fill('wordle-eval-base-gptoss20b/');
      await rowOf(page, 'eval-output/wordle-eval-base-gptoss20b/').click();
      await screenshot('cleanup-review');
      await page.keyboard.press('Enter');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: ceiling(20_000) });
      const text = await dialog.innerText();
      assert.match(text, /Delete 1 resource\?/);
      assert.match(text, /wordle-eval-base-gptoss20b\/: delete 1 object/);
      // Jobs the launch suites started run on the same runtime; the seeded running job is among the users named.
      assert.match(text, new RegExp(`Refused agent runtime wordle_agent: used by running jobs? [^;]*${RUNNING}`));
      // Roles and S3 are account-wide: the jobs of every MTRL region were read, and the dialog says so.
      assert.match(text, /Checked the jobs of us-east-1, us-west-2/);
      await screenshot('cleanup-confirm');
      await dialog.locator('.monaco-button', { hasText: 'Delete 1 resource' }).click();
      const done = toast(page, 'Cleanup finished: 1 deleted and 1 S3 object, 1 still there.');
      await done.waitFor({ timeout: ceiling(60_000) });
      assert.match(await done.innerText(), /agent runtime wordle_agent: used by running job/);
    },
  },
];
