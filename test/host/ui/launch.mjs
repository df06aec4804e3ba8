// UI check of the training wizard (#7): every step driven with the keyboard and mouse, Back included, the review read, the launch confirmed and the job found in the tree.
import assert from 'node:assert/strict';
import { heldToast } from '../lib/toasts.mjs';
import { ceiling } from '../lib/wait.mjs';
import { QUICK_INPUT } from '../lib/quick-input.mjs';
import { palette } from './replay.mjs';

export const widget = (page) => page.locator(QUICK_INPUT);
export const rowOf = (page, text) => widget(page).locator('.monaco-list-row', { hasText: text }).first();

/**
 * Waits for the step whose placeholder (a pick) or prompt (an input box, shown as the message) matches, then returns its input.
 * Matching the prompt alone for input boxes avoids typing into the pick that precedes them with the same words.
 */
export async function step(page, pattern, kind = 'pick') {
  await page.waitForFunction(
    ([source, kind, open]) => {
      const w = document.querySelector(open);
      if (!w || w.style.display === 'none') return false;
      const text =
        kind === 'input'
          ? (w.querySelector('.quick-input-message')?.textContent ?? '')
          : (w.querySelector('input')?.getAttribute('placeholder') ?? '');
      return new RegExp(source).test(text);
    },
    [pattern.source, kind, QUICK_INPUT],
    { timeout: ceiling(20_000) },
  );
  // Every step and sub-step says where it is in the wizard: "MTRL: Launch Training Job: S3 URI (5/11)". Waited for: the
  // title may be drawn a moment after the placeholder.
  const numbered = /^MTRL: Launch Training Job.* \(\d+\/11\)$/;
  const title = widget(page).locator('.quick-input-title').first();
  await title
    .filter({ hasText: numbered })
    .waitFor({ timeout: ceiling(5_000) })
    .catch(() => undefined);
  assert.match((await title.textContent()) ?? '', numbered, `the step "${pattern.source}" has no step number`);
  return widget(page).locator('input').first();
}

export async function pick(page, pattern, rowText) {
  await step(page, pattern);
  const row = rowOf(page, rowText);
  await row.waitFor({ timeout: ceiling(20_000) });
  await row.click();
}

async function type(page, pattern, value) {
  const input = await step(page, pattern, 'input');
  await input.fill(value);
  await page.keyboard.press('Enter');
}

/** Every step of MTRL: Launch Training Job, as a user would go through it. */
async function wizard({ page, emulatorUrl, screenshot }) {
  if (!emulatorUrl) return 'skipped: no emulator to launch on';
  const jobName = `wordle-wizard-${Date.now().toString(36)}`;
  await palette(page, '>MTRL: Launch Training Job', 'Launch Training Job');

  await pick(page, /Region of the job/, 'us-east-1');
  await pick(page, /Base model offered in us-east-1/, 'GPT-OSS-20B');
  await pick(page, /Agent runtime in us-east-1/, 'wordle_agent-AbCdEf1234');
  // The role step lists the account's roles with a trust verdict each; the wrong-trust role says why it would fail.
  await step(page, /Job role: it must trust/);
  const wrongTrust = rowOf(page, 'MtrlWrongTrustRole');
  await wrongTrust.waitFor({ timeout: ceiling(20_000) });
  assert.match((await wrongTrust.textContent()) ?? '', /not usable as is/);
  await pick(page, /Job role: it must trust/, 'MtrlJobRole');
  await pick(page, /Training dataset/, 'Enter an S3 URI');
  await type(page, /Training dataset/, 's3://mtrl-demo/wordle/train.jsonl');
  await pick(page, /Validation dataset/, 'Enter an S3 URI');
  await type(page, /Validation dataset/, 's3://mtrl-demo/wordle/val.jsonl');
  await type(page, /S3 output path/, 's3://mtrl-demo/output');
  // The MLflow step lists the apps with their version; the old one (3.4.0) is marked, the demo app (3.10.0) is not.
  await step(page, /MLflow app/);
  const legacy = rowOf(page, 'app-legacy01');
  await legacy.waitFor({ timeout: ceiling(20_000) });
  assert.match((await legacy.textContent()) ?? '', /MLflow 3\.4\.0: MTRL needs 3\.10 or later/);
  assert.match((await rowOf(page, 'app-wordle01').textContent()) ?? '', /MLflow 3\.10\.0/);
  await pick(page, /MLflow app/, 'None');

  // Back from the hyperparameters returns to the MLflow step; answering again comes back.
  await step(page, /Choose a value to change/);
  await widget(page).locator('.action-label[aria-label^="Back"]').first().click();
  await pick(page, /MLflow app/, 'None');
  await pick(page, /Choose a value to change/, 'Quick trial');
  // The step shows again with the preset applied; wait for that list, not the one clicked.
  const applied = widget(page)
    .locator('.monaco-list-row', { hasText: /Continue with these values.*max_steps=10/ })
    .first();
  await applied.waitFor({ timeout: ceiling(10_000) });
  assert.match((await applied.textContent()) ?? '', /sampling_max_tokens=8192/, 'the reasoning model did not get sampling_max_tokens 8192');
  await pick(page, /Choose a value to change/, 'Continue with these values');

  // An invalid name is refused with a sentence; a valid one goes on.
  const name = await step(page, /Job name/, 'input');
  await name.fill('-bad name');
  await widget(page)
    .locator('.quick-input-message', { hasText: /letters, digits and hyphens/ })
    .waitFor({ timeout: ceiling(10_000) });
  await name.fill(jobName);
  await widget(page)
    .locator('.quick-input-message', { hasText: /Job name/ })
    .waitFor({ timeout: ceiling(10_000) });
  await page.keyboard.press('Enter');

  await step(page, /Review, then choose Launch/);
  await rowOf(page, `Launch ${jobName}`).waitFor({ timeout: ceiling(30_000) });
  const lines = await widget(page)
    .locator('.monaco-list-row')
    .evaluateAll((els) => els.map((e) => e.textContent ?? ''));
  const text = lines.join('\n');
  assert.match(text, /640 rows \/ batch 128 = 5 steps per epoch/);
  assert.match(text, /128 × group 8 = 1,024 rollouts per step/);
  assert.match(text, /max_epochs 1 stops first at step 5/);
  assert.match(text, /\$\d[\d,]*\.\d\d – \$\d[\d,]*\.\d\d in tokens/);
  if (screenshot) await screenshot('launch-review');
  // Pre-flight lines further down: typing filters the review list as in any quick pick.
  const filter = widget(page).locator('input').first();
  for (const line of ['Role trusts job.sagemaker.amazonaws.com', 'Runtime READY in us-east-1', 'GPT-OSS-20B is offered in us-east-1']) {
    await filter.fill(line.split(' ').slice(0, 2).join(' '));
    await rowOf(page, line).waitFor({ timeout: ceiling(10_000) });
  }
  await filter.fill('');

  // The budget is a sub-step of the review: numbered like it (a budget this high never warns during the other checks).
  await rowOf(page, 'No budget: choose to set one').click();
  await type(page, /Estimated token cost in US dollars/, '100000');
  await step(page, /Now: warn/);
  await rowOf(page, 'Warn me').click();
  await rowOf(page, 'Budget $100,000.00: warn').waitFor({ timeout: ceiling(10_000) });

  await rowOf(page, `Launch ${jobName}`).click();
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: ceiling(10_000) });
  assert.match(await dialog.innerText(), /warning/);
  await dialog.locator('.monaco-button', { hasText: 'Launch Anyway' }).click();
  // Found by its accessible name: the row's label shows only what tells the job from its neighbours.
  await page
    .locator(`.part.sidebar .monaco-list-row[aria-label^="${jobName},"]`)
    .first()
    .waitFor({ timeout: ceiling(30_000) });
  const notice = await heldToast(page, 'Do not redeploy runtime wordle_agent-AbCdEf1234', ceiling(10_000));
  if (screenshot) await screenshot('launch-revealed');
  // Turning the notice off leaves the workbench as the next check expects it.
  await notice.locator('.monaco-button', { hasText: "Don't Show Again" }).click();
  await notice.waitFor({ state: 'hidden', timeout: ceiling(10_000) });
  return undefined;
}

export const checks = [
  {
    name: 'launch wizard: every training step and sub-step numbered, with Back, a review with the arithmetic, pre-flight and a budget, launch confirmed, job in the sidebar',
    async run(context) {
      try {
        return await wizard(context);
      } catch (error) {
        // A failed step must not leave the wizard open over the next UI check.
        for (let i = 0; i < 3; i++) await context.page.keyboard.press('Escape');
        throw error;
      }
    },
  },
];
