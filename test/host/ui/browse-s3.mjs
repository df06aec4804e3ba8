// UI check of Browse S3… (#15): from the launch wizard's training dataset step, bucket → folder (S3 CommonPrefixes) → up → folder → object, the chosen URI back in the wizard.
import assert from 'node:assert/strict';
import { pick, step, widget } from './launch.mjs';
import { ceiling } from '../lib/wait.mjs';
import { QUICK_INPUT } from '../lib/quick-input.mjs';
import { palette } from './replay.mjs';

const BUCKET = 'mtrl-demo';
const CHOSEN = `s3://${BUCKET}/wordle/train.jsonl`;
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const folder = (uri) => new RegExp(`Folders and dataset files in ${literal(uri)}$`);
const rows = (page) => widget(page).locator('.monaco-list-row');
// A row's aria-label ("folder wordle/", "file train.jsonl, 640 bytes"): its text content may keep a hidden detail of an earlier pick.
const rowTexts = (page) => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));

/** Waits for the listing to show a row whose text matches, and returns the rows' texts; a timeout names what was listed instead. */
async function listed(page, pattern) {
  const found = await page
    .waitForFunction(
      ([source, open]) =>
        [...document.querySelectorAll(`${open} .monaco-list-row`)].some((e) => new RegExp(source).test(e.getAttribute('aria-label') ?? '')),
      [pattern.source, QUICK_INPUT],
      { timeout: ceiling(20_000) },
    )
    .then(() => true)
    .catch(() => false);
  const texts = await rowTexts(page);
  const placeholder = await widget(page).locator('input').first().getAttribute('placeholder');
  assert.ok(found, `no row ${pattern} under "${placeholder}": ${texts.join(' | ')}`);
  return texts;
}

/** Clicks the listed row whose text matches, in the step whose placeholder matches. */
async function open(page, placeholder, pattern) {
  await step(page, placeholder);
  const texts = await listed(page, pattern);
  await rows(page)
    .nth(texts.findIndex((t) => pattern.test(t)))
    .click();
}

/** Records each change of the quick input's red state and message, so a red flash before typing is seen even if it goes away. */
function watchValidation(page) {
  return page.evaluate(() => {
    const log = [];
    window.__mtrlValidation = log;
    new window.MutationObserver(() => {
      const red = Boolean(document.querySelector('.quick-input-widget .monaco-inputbox')?.classList.contains('error'));
      const message = document.querySelector('.quick-input-widget .quick-input-message')?.textContent ?? '';
      const last = log.at(-1);
      if (!last || last.red !== red || last.message !== message) log.push({ red, message });
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

async function browse({ page, emulatorUrl, screenshot }) {
  if (!emulatorUrl) return 'skipped: no emulator bucket to browse';
  await palette(page, '>MTRL: Launch Training Job', 'Launch Training Job');
  await pick(page, /Region of the job/, 'us-east-1');
  await pick(page, /Base model offered in us-east-1/, 'GPT-OSS-20B');
  await pick(page, /Agent runtime in us-east-1/, 'wordle_agent-AbCdEf1234');
  await pick(page, /Job role: it must trust/, 'MtrlJobRole');

  await watchValidation(page);
  await pick(page, /^Training dataset/, 'Browse S3…');
  const where = await step(page, /^Bucket and prefix to browse/, 'input');
  // Messages from the extension host arrive in order: a validation of the opening value would be logged before the reaction to typing.
  await page.evaluate(() => window.__mtrlValidation.push({ mark: 'typing' }));
  await where.fill('bucket without scheme');
  await widget(page)
    .locator('.monaco-inputbox.error')
    .waitFor({ timeout: ceiling(10_000) });
  const log = await page.evaluate(() => window.__mtrlValidation);
  const mark = log.findIndex((e) => e.mark);
  assert.deepEqual(
    log.slice(0, mark).filter((e) => e.red),
    [],
    `red before anything was typed: ${JSON.stringify(log)}`,
  );
  assert.ok(
    log.slice(mark).some((e) => e.red && /Expected s3:\/\/bucket\/prefix/.test(e.message)),
    `typing a wrong value turned the box red with the reason: ${JSON.stringify(log)}`,
  );
  await where.fill(`s3://${BUCKET}/`);
  await widget(page)
    .locator('.monaco-inputbox.error')
    .waitFor({ state: 'detached', timeout: ceiling(10_000) });
  await page.keyboard.press('Enter');

  // The bucket's top level lists folders (CommonPrefixes of Delimiter "/"), not every key flat.
  await step(page, folder(`s3://${BUCKET}/`));
  const top = await listed(page, /(^|\s)wordle\/$/);
  assert.ok(
    top.some((t) => /(^|\s)output\/$/.test(t)),
    `top level: ${top.join(' | ')}`,
  );
  assert.ok(!top.some((t) => t.includes('train.jsonl')), `a key below a folder is listed at the top: ${top.join(' | ')}`);
  if (screenshot) await screenshot('browse-s3-bucket');

  await open(page, folder(`s3://${BUCKET}/`), /(^|\s)output\/$/);
  await open(page, folder(`s3://${BUCKET}/output/`), /(^|\s)\.\., mtrl-demo$/);
  await open(page, folder(`s3://${BUCKET}/`), /(^|\s)wordle\/$/);
  await step(page, folder(`s3://${BUCKET}/wordle/`));
  const inWordle = await listed(page, /(^|\s)train\.jsonl, [\d,]+ bytes$/);
  assert.ok(
    inWordle.some((t) => /(^|\s)val\.jsonl, [\d,]+ bytes$/.test(t)),
    `wordle/: ${inWordle.join(' | ')}`,
  );
  if (screenshot) await screenshot('browse-s3-folder');
  await open(page, folder(`s3://${BUCKET}/wordle/`), /(^|\s)train\.jsonl, /);

  // The wizard went on with the chosen URI: Back shows it as the training dataset's answer, focused.
  await step(page, /^Validation dataset/);
  await widget(page).locator('.action-label[aria-label^="Back"]').first().click();
  await step(page, /^Training dataset/);
  const chosen = widget(page).locator(`.monaco-list-row.focused[aria-label^="${CHOSEN}, "]`);
  await chosen.waitFor({ timeout: ceiling(10_000) });
  await page.keyboard.press('Escape');
  return undefined;
}

export const checks = [
  {
    name: 'Browse S3… from the launch wizard: no red box before typing, bucket → folder → up → folder → object, the s3:// URI becomes the answer',
    async run(context) {
      try {
        return await browse(context);
      } finally {
        // Nothing is launched: the wizard closes whether the check passed or not.
        for (let i = 0; i < 3; i++) await context.page.keyboard.press('Escape');
      }
    },
  },
];
