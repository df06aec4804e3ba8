// UI check of the Jobs view (#6): Playwright reads the tree rows, saves screenshots (jobs-tree…) in test-results/host/, and stops the running job through its inline action.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { clickInlineAction } from '../lib/menu.mjs';
import { palette } from './replay.mjs';
import { ceiling, until } from '../lib/wait.mjs';
import { QUICK_INPUT } from '../lib/quick-input.mjs';

const RUNNING = 'wordle-gptoss20b-grpo-lr-sweep';
const SEEDED = [
  RUNNING,
  'wordle-gptoss20b-grpo-wrong-role',
  'wordle-gptoss20b-grpo-100steps',
  'wordle-eval-trained-gptoss20b',
  'wordle-eval-base-gptoss20b',
];

const jobsPane = (page) => page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: /^Jobs|Jobs/ }) }).first();
// Rows are found by their accessible name, which holds the whole job name (the label may be cut in the middle).
const row = (page, name) => jobsPane(page).locator(`.monaco-list-row[aria-label^="${name}"]`).first();

export async function openJobsView(page) {
  const header = page.locator('.part.sidebar .pane-header', { hasText: 'Jobs' }).first();
  const item = page.locator('.part.activitybar .action-item', { has: page.locator('a[aria-label^="MTRL"]') }).first();
  // The MTRL item is clicked only when its container is not the one shown (a click on that would close the side bar):
  // decided by the item's state, since a window just reloaded shows the container long before its Jobs header. A
  // click that lands as the side bar closes (a reload's or the previous check's) is made again.
  await until(
    'the Jobs view to show',
    async () => {
      if (await header.isVisible()) return true;
      const shown =
        (await item.evaluate((el) => el.classList.contains('checked')).catch(() => false)) &&
        (await page.locator('.part.sidebar').isVisible());
      if (!shown) await item.locator('a').click();
      // No refresh here: the harness's reset has listed every root and waited until the view drew them.
      return header.waitFor({ timeout: ceiling(5_000) }).then(
        () => true,
        () => false,
      );
    },
    { timeoutMs: ceiling(60_000) },
  );
}

/** Drags the sidebar's edge so descriptions (progress, cost, age) are readable in the screenshot. */
async function widenSidebar(page) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) return;
  const x = box.x + box.width + 1;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 380, y, { steps: 5 });
  await page.mouse.up();
}

/** Where the running job's row text and the given prefix of its description end, against the room the row gives them. */
function descriptionFit(page, name, prefix) {
  return jobsPane(page)
    .locator('.monaco-list-row', { has: page.locator(`.label-name`) })
    .evaluateAll(
      (rows, [name, prefix]) => {
        const row = rows.find((r) => (r.getAttribute('aria-label') ?? '').startsWith(`${name},`));
        const description = row?.querySelector('.label-description');
        const text = description?.firstChild;
        if (!row || !text) return undefined;
        const range = document.createRange();
        range.setStart(text, 0);
        range.setEnd(text, Math.min(prefix.length, text.textContent.length));
        const room = row.querySelector('.monaco-icon-label-container') ?? row;
        return {
          shown: text.textContent,
          end: range.getBoundingClientRect().right,
          limit: room.getBoundingClientRect().right,
          sidebar: document.querySelector('.part.sidebar')?.getBoundingClientRect().width,
        };
      },
      [name, prefix],
    );
}

/** The running job's row: its step from the row, and the row element for hovering. */
async function runningStep(page) {
  const label = await rowByName(page, RUNNING).getAttribute('aria-label');
  const m = /step (\d+)\/100/.exec(label ?? '');
  return m ? Number(m[1]) : undefined;
}

export const rowByName = (page, name) => jobsPane(page).locator(`.monaco-list-row[aria-label^="${name},"]`).first();

/**
 * Hovers a row until the workbench shows its tooltip; returns the tooltip's text. An allowed retry around an input the
 * workbench drops: it closes (or never opens) a hover when the row under the pointer is redrawn (a poll, in the one check
 * that polls) or when the pointer came to rest while it relaid the list; hovering again is the user's move too.
 */
async function tooltipOf(page, locator, hasText) {
  const hover = page.locator('.workbench-hover, .monaco-hover', hasText ? { hasText } : {}).first();
  for (let attempt = 0; attempt < 6; attempt++) {
    await page.mouse.move(900, 700);
    await hover.waitFor({ state: 'hidden', timeout: ceiling(5_000) }).catch(() => {});
    const box = await locator.locator('.label-name').boundingBox();
    await page.mouse.move(box.x + 10, box.y + box.height / 2, { steps: 4 });
    // A poll redraws the row under the pointer and may close the hover before it is read: then hover again.
    const text = await hover
      .waitFor({ timeout: ceiling(4_000) })
      .then(() => hover.innerText({ timeout: ceiling(1_000) }))
      .catch(() => undefined);
    if (text) return text;
  }
  throw new Error('the row never showed its tooltip');
}

/** Writes (or removes, with undefined) one setting in the opened folder's .vscode/settings.json (the harness drops it after the group). */
export function setWorkspaceSetting(workspaceRoot, key, value) {
  const file = path.join(workspaceRoot, '.vscode', 'settings.json');
  const settings = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  if (value === undefined) delete settings[key];
  else settings[key] = value;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

export const checks = [
  {
    name: 'jobs view labels: the SDK pipeline pair under one node as base and fine-tuned, evaluations by their MLflow run names, no label cut inside a word',
    async run({ page, emulatorUrl, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no jobs to show';
      await openJobsView(page);
      const pipeline = jobsPane(page).locator('.monaco-list-row[aria-label^="pipeline q8hvze02od4o"]').first();
      await pipeline.waitFor({ timeout: ceiling(30_000) });
      const labelOf = async (name) => (await rowByName(page, name).locator('.label-name').innerText()).trim();
      const base = 'pipelines-q8hvze02od4o-EvaluateBaseModel-prdIRv4hLK';
      const tuned = 'pipelines-q8hvze02od4o-EvaluateFineTunedMod-mwwrZNnd6y';
      for (const name of [base, tuned]) await rowByName(page, name).waitFor({ timeout: ceiling(30_000) });
      assert.equal(await labelOf(base), 'base');
      assert.equal(await labelOf(tuned), 'fine-tuned');
      // Children sit one level below their pipeline node.
      const level = async (locator) => Number(await locator.getAttribute('aria-level'));
      assert.equal(await level(rowByName(page, base)), (await level(pipeline)) + 1);
      assert.equal(await labelOf('wordle-eval-base-gptoss20b'), 'base-model-eval');
      assert.equal(await labelOf('wordle-eval-trained-gptoss20b'), 'fine-tuned…eval');
      for (const name of SEEDED) {
        const words = name.split(/[-_.]/);
        const shown = await labelOf(name);
        if (name.startsWith('wordle-eval')) continue;
        for (const part of shown.split(/[-_.…]/).filter(Boolean)) assert.ok(words.includes(part), `"${shown}" cuts a word of ${name}`);
      }
      await screenshot('jobs-pipeline');
    },
  },
  {
    name: 'jobs view at the default sidebar width: each row shows a short name and its first facts (progress and cost of the running job)',
    async run({ page, emulatorUrl, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no jobs to show';
      await openJobsView(page);
      for (const name of SEEDED) await rowByName(page, name).waitFor({ timeout: ceiling(30_000) });
      await screenshot('jobs-tree-default-width');
      for (const [name, facts] of [
        [RUNNING, /^\d+\/100 · \$\d+\.\d\d/],
        ['wordle-gptoss20b-grpo-100steps', /^100\/100 · \$\d+\.\d\d/],
      ]) {
        const row = await rowByName(page, name).getAttribute('aria-label');
        assert.ok(row, `no row for ${name}`);
        const shown = await descriptionFit(page, name, '');
        const prefix = facts.exec(shown?.shown ?? '')?.[0];
        assert.ok(prefix, `the row of ${name} does not start with its progress and cost: ${JSON.stringify(shown)}`);
        const fit = await descriptionFit(page, name, prefix);
        assert.ok(
          fit.end <= fit.limit + 1,
          `"${prefix}" of ${name} is cut at a ${Math.round(fit.sidebar)} px sidebar: it ends at ${Math.round(fit.end)}, the row at ${Math.round(fit.limit)}`,
        );
      }
    },
  },
  {
    name: "jobs view at the default sidebar width: a running job's row and its tooltip come from the same refresh",
    // This check watches polls: the harness leaves the Jobs view polling (held for the others).
    polling: true,
    async run({ page, emulatorUrl, workspaceRoot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no running job';
      await openJobsView(page);
      // Polls every 5 s: the UI checks' emulator moves the running job a step about every 7.5 s.
      setWorkspaceSetting(workspaceRoot, 'mtrl.jobs.refreshSeconds', 5);
      try {
        const before = await runningStep(page);
        await page.waitForFunction(
          ([name, before]) =>
            [...document.querySelectorAll('.part.sidebar .monaco-list-row')].some((r) => {
              const label = r.getAttribute('aria-label') ?? '';
              const m = /step (\d+)\/100/.exec(label);
              return label.startsWith(`${name},`) && m && Number(m[1]) !== before;
            }),
          [RUNNING, before],
          { timeout: ceiling(60_000) },
        );
        // Polling slowed once the row moved: a redraw every 5 s under the pointer closed the hover in six tries of one
        // loaded CI. A poll already under way may still redraw once (tooltipOf hovers again).
        setWorkspaceSetting(workspaceRoot, 'mtrl.jobs.refreshSeconds', 3600);
        // One look once the row moved: a row kept from an earlier draw would be behind its tooltip.
        const tip = await tooltipOf(page, rowByName(page, RUNNING));
        const tooltipStep = Number(/step (\d+)\/100/.exec(tip)?.[1]);
        const rowStep = await runningStep(page);
        // A poll may land between the two reads and move the row on; the row must never be behind its tooltip.
        assert.ok(rowStep >= tooltipStep, `the row says step ${rowStep}, its tooltip step ${tooltipStep}`);
        assert.ok(rowStep > before, `the row still says step ${rowStep}, as before the refresh`);
      } finally {
        setWorkspaceSetting(workspaceRoot, 'mtrl.jobs.refreshSeconds', undefined);
        await page.mouse.move(900, 700);
      }
    },
  },
  {
    name: 'jobs view shows the seeded jobs with status, progress, cost and age; Stop turns the running job to Stopping/Stopped',
    async run({ page, emulatorUrl, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no jobs to show';
      await openJobsView(page);
      for (const name of SEEDED) await row(page, name).waitFor({ timeout: ceiling(30_000) });
      const rows = await jobsPane(page)
        .locator('.monaco-list-row')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''));
      const byName = (name) => rows.find((r) => r.startsWith(`${name},`)) ?? '';
      assert.match(byName('wordle-gptoss20b-grpo-100steps'), /Completed, step 100\/100, \$\d+\.\d\d, \dd ago/);
      assert.match(byName('wordle-gptoss20b-grpo-wrong-role'), /Failed, Job role not trusted/);
      // The row: step, the cost so far, the ETA from the step rate once known.
      assert.match(byName(RUNNING), /InProgress, step \d+\/100, \$\d+\.\d\d(, ETA [^,]+)?/);
      assert.ok(rows.some((r) => /^Training/.test(r)) && rows.some((r) => /^Evaluation/.test(r)), `roots missing in ${rows.join(' | ')}`);
      await widenSidebar(page);
      await screenshot('jobs-tree');

      await clickInlineAction(page, row(page, RUNNING), 'Stop Job');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: ceiling(10_000) });
      const asked = await dialog.innerText();
      assert.match(asked, new RegExp(`Stop ${RUNNING}\\?`));
      // The truth about a stopped training job: its checkpoints stay, and Resume from Checkpoint goes on from the last.
      assert.match(asked, /Each finished step left a checkpoint: "Resume from Checkpoint" goes on from the last one/);
      assert.doesNotMatch(asked, /cannot be resumed/);
      await dialog.locator('.monaco-button', { hasText: 'Stop Job' }).click();
      await page.waitForFunction(
        (name) =>
          [...document.querySelectorAll('.part.sidebar .monaco-list-row')].some(
            (e) =>
              /^.+?, (Stopping|Stopped),/.test(e.getAttribute('aria-label') ?? '') &&
              (e.getAttribute('aria-label') ?? '').startsWith(`${name},`),
          ),
        RUNNING,
        { timeout: ceiling(30_000) },
      );
      await screenshot('jobs-tree-stopped');
    },
  },
  {
    name: 'jobs view tooltip explains a failed job; the name filter shows next to the title and narrows the rows',
    async run({ page, emulatorUrl, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no jobs to show';
      await openJobsView(page);
      const tip = await tooltipOf(page, row(page, 'wordle-gptoss20b-grpo-wrong-role'), 'Job role not trusted');
      assert.match(tip, /job\.sagemaker\.amazonaws\.com/);
      assert.match(tip, /Could not assume role/);
      await screenshot('jobs-tooltip');
      await page.mouse.move(900, 700);
      await page.keyboard.press('Escape');
      await page
        .locator('.workbench-hover, .monaco-hover')
        .first()
        .waitFor({ state: 'hidden', timeout: ceiling(10_000) });

      const header = page.locator('.part.sidebar .pane-header', { hasText: 'Jobs' }).first();
      try {
        await palette(page, '>MTRL: Filter Jobs by Name', 'Filter Jobs by Name');
        const input = page.locator(`${QUICK_INPUT} input`);
        await page.locator(QUICK_INPUT, { hasText: 'name contains' }).waitFor({ timeout: ceiling(10_000) });
        await input.fill('eval-base');
        await page.keyboard.press('Enter');
        await header.locator('.description', { hasText: 'name ~ "eval-base"' }).waitFor({ timeout: ceiling(10_000) });
        await row(page, 'No jobs match the filter.').waitFor({ timeout: ceiling(20_000) });
        await row(page, 'wordle-eval-base-gptoss20b').waitFor({ timeout: ceiling(20_000) });
        // The evaluation root reloads after the training root: its old rows go.
        await row(page, 'wordle-eval-trained-gptoss20b').waitFor({ state: 'detached', timeout: ceiling(20_000) });
        await screenshot('jobs-filtered');
        await row(page, 'No jobs match the filter.').click();
        await row(page, 'wordle-eval-trained-gptoss20b').waitFor({ timeout: ceiling(20_000) });
        const described = header.locator('.description', { hasText: 'eval-base' });
        await described.waitFor({ state: 'detached', timeout: ceiling(10_000) }).catch(() => undefined);
        assert.equal(await described.count(), 0, 'the filter description stayed after clearing');
      } finally {
        // Leave the view as the next checks expect it: no open quick input, no filter.
        await page.keyboard.press('Escape');
        const clear = header.locator('.action-label[aria-label^="Clear Jobs Filter"]');
        if (await clear.isVisible()) await clear.click();
      }
    },
  },
];
