// UI check of the learning-signal report (#29) in the real workbench: a local rollouts folder's report at half the
// window in the light and the dark theme (screenshots), then Open Rollouts on the Board and Try a Changed Reward from the keyboard.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SageMakerClient, StopJobCommand } from '@aws-sdk/client-sagemaker';
import { ceiling, frameShowing, until } from '../lib/wait.mjs';
import { boardFrame, openFile, palette } from './replay.mjs';
import { QUICK_INPUT } from '../lib/quick-input.mjs';

const VIEWPORT = { width: 1400, height: 900 };
const HALF = 640;

/** Sizes the browser so the editor part is `width` px wide (the side bar keeps its width). */
async function editorWidth(page, width) {
  await page.setViewportSize(VIEWPORT);
  const box = await page.locator('.monaco-workbench .part.editor').boundingBox();
  await page.setViewportSize({ width: Math.round(VIEWPORT.width - (box.width - width)), height: VIEWPORT.height });
  await page.waitForFunction(
    (w) => Math.abs(document.querySelector('.monaco-workbench .part.editor').getBoundingClientRect().width - w) <= 1,
    width,
    { timeout: ceiling(10_000) },
  );
}

const isDark = (page) => page.evaluate(() => document.querySelector('.monaco-workbench').classList.contains('vs-dark'));

/** What must hold at any width: nothing sideways, every bar and button inside the page. */
function layout(frame) {
  return frame.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const outside = [...document.querySelectorAll('.slot, vscode-button, .figure, .verdict')].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.right > width + 1 || r.left < -1;
    });
    return {
      width,
      scrolls: document.documentElement.scrollWidth > width + 1,
      outside: outside.length,
      foreground: getComputedStyle(document.body).getPropertyValue('--vscode-foreground').trim(),
      // A plain bar: the extreme bars' orange is one colour in both default themes of VS Code 1.103.
      bar: getComputedStyle(document.querySelector('.difficulty .bar:not(.extreme)')).backgroundColor,
    };
  });
}

export const checks = [
  {
    name: '#29 learning-signal report of a rollouts folder at half the window, light and dark; Open Rollouts on the Board and Try a Changed Reward from the keyboard',
    async run({ page, workspace, host, screenshot }) {
      const startedDark = await isDark(page);
      await editorWidth(page, HALF);
      try {
        await host('mtrl.checkLearningSignal', [path.join(workspace, 'signal', 'refund-check')]);
        // Read once the report is not reading (until its first read ends it may show a placeholder in its place).
        const frame = await frameShowing(
          page,
          'the learning-signal report, read',
          (f) => f.locator('body:not(:has(vscode-progress-ring)) .verdict h2'),
          {
            timeoutMs: ceiling(60_000),
          },
        );
        assert.equal((await frame.locator('.verdict h2').innerText()).trim(), '50 % of tasks have zero advantage (3 of 6 groups)');
        assert.match(await frame.locator('.verdict').innerText(), /33 % of tasks are solved by every rollout: they teach nothing\./);
        const seen = {};
        for (const dark of [false, true]) {
          if ((await isDark(page)) !== dark) {
            const before = (await layout(frame)).foreground;
            await palette(page, '>Preferences: Toggle between Light/Dark Themes', 'Toggle between Light/Dark Themes');
            // The webview gets the new theme's variables a moment after the workbench: wait for them, not for a time.
            await until('the report to take the new theme', async () => (await layout(frame)).foreground !== before, {
              timeoutMs: ceiling(15_000),
            });
          }
          const shown = await layout(frame);
          seen[dark ? 'dark' : 'light'] = shown.bar;
          await screenshot(`signal-${dark ? 'dark' : 'light'}-${HALF}px`);
          assert.ok(Math.abs(shown.width - HALF) < 40, `the report is ${shown.width} px wide`);
          assert.equal(shown.scrolls, false, 'the report scrolls sideways at half the window');
          assert.equal(shown.outside, 0, 'a bar, figure or button is cut off');
        }
        assert.notEqual(seen.light, seen.dark, 'the bars kept one colour in both themes');
        // Keyboard only: the button takes the focus and Enter presses it (a click on the heading first gives the report's
        // frame the focus, which the theme picker had taken back to the workbench).
        await frame.locator('.toolbar h1').click();
        await frame.locator('vscode-button.action-openRollouts:not([disabled])').press('Enter');
        await page
          .locator('.tabs-container .tab', { hasText: `Rollouts: ${path.basename(workspace)}/signal/refund-check` })
          .first()
          .waitFor({ timeout: ceiling(30_000) });
        const board = await boardFrame(page, ceiling(90_000), `${path.basename(workspace)}/signal/refund-check`);
        await until('the board to list the 6 tasks', async () => (await board.locator('.group-row[data-group]').count()) === 6, {
          timeoutMs: ceiling(30_000),
        });
        // Try a Changed Reward: back on the report, the reward what-if asks for a scenario file to re-score the board's 24 rollouts.
        await page
          .locator('.tabs-container .tab', { hasText: `Learning signal: ${path.basename(workspace)}/signal/refund-check` })
          .first()
          .click();
        // Shown again, the page may draw before the extension posts the report (its buttons disabled until then): a key
        // pressed on a disabled button is lost, so wait for the button to be enabled.
        const tryReward = 'vscode-button.action-tryReward:not([disabled])';
        const report = await frameShowing(page, 'the report again, its Try a Changed Reward enabled', (f) => f.locator(tryReward), {
          timeoutMs: ceiling(30_000),
        });
        // The key goes to the frame that has the focus, which a webview shown again may take a moment after its button is
        // drawn: while the report is still in front (the what-if brings the board forward first), a press that reached
        // nothing is pressed again, twice at most. Each press is still the keyboard's.
        const asked = page.locator(QUICK_INPUT, { hasText: 're-score the 24 rollouts shown' });
        // A click on the report's heading gives its frame the focus, as a user's would; the action itself is the keyboard's.
        await report.locator('.toolbar h1').click();
        for (let press = 1; ; press++) {
          await report.locator(tryReward).press('Enter');
          if (
            await asked.waitFor({ timeout: ceiling(10_000) }).then(
              () => true,
              () => false,
            )
          )
            break;
          const reportInFront =
            !report.isDetached() &&
            (await report
              .locator(tryReward)
              .isVisible()
              .catch(() => false));
          if (press === 3 || !reportInFront) {
            await asked.waitFor({ timeout: ceiling(20_000) }).catch(async (error) => {
              await screenshot('signal-failed-try-reward');
              throw error;
            });
            break;
          }
        }
        await page.keyboard.press('Escape');
      } finally {
        await page.setViewportSize(VIEWPORT);
        await palette(page, '>View: Close All Editors', 'View: Close All Editors');
        if ((await isDark(page)) !== startedDark)
          await palette(page, '>Preferences: Toggle between Light/Dark Themes', 'Toggle between Light/Dark Themes');
      }
    },
  },
  {
    name: "#29 a training job's launch review shows its running signal check beside the cost estimate",
    async run({ page, workspace, workspaceRoot, emulatorUrl, host, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no evaluation job to launch';
      const file = path.join(workspace, 'signal', 'refund-train.mtrl.json');
      const training = JSON.parse(readFileSync(file, 'utf8'));
      // 80 rows × 32 rollouts run 20 minutes in the emulator: still running however slowly the review comes up (it took
      // a minute at load 12, when 4 rows × 4 had finished). The review finds the check by dataset and runtime only.
      training.JobConfigDocument.TrainingConfig.HyperParameters.group_size = '32';
      const reward = `ui-review-${Date.now().toString(36)}`;
      const check = await host('mtrl.checkLearningSignal', [{ training, rows: 80, reward, confirm: false }]);
      assert.equal(check?.status, 'running', JSON.stringify(check));
      try {
        await openFile(page, workspaceRoot, file);
        await palette(page, '>MTRL: Launch Job File', 'MTRL: Launch Job File');
        const row = page.locator(`${QUICK_INPUT} .monaco-list-row`, { hasText: `a check is running (${check.jobName}` });
        await row.first().waitFor({ timeout: ceiling(90_000) });
        // Next to the cost estimate: the row right after it (the review may still be drawing its other rows).
        let labels = [];
        const besideCost = () => {
          const cost = labels.findIndex((l) => /in tokens|No cost estimate|No token prices/.test(l));
          return cost >= 0 && /Learning signal/.test(labels[cost + 1] ?? '');
        };
        await until(
          'the signal check right after the cost estimate',
          async () => {
            labels = await page.locator(`${QUICK_INPUT} .monaco-list-row`).allTextContents();
            return besideCost();
          },
          { timeoutMs: ceiling(10_000) },
        ).catch(() => undefined);
        assert.ok(besideCost(), `the review lists: ${labels.join(' | ')}`);
        await screenshot('signal-launch-review');
      } finally {
        // Closing the review launches nothing.
        await page.keyboard.press('Escape');
        await palette(page, '>View: Close All Editors', 'View: Close All Editors');
        // The emulator runs one evaluation at a time (its quota): a later check must not find this one in the way.
        const sagemaker = new SageMakerClient({
          endpoint: emulatorUrl,
          region: 'us-east-1',
          credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
        });
        await sagemaker.send(new StopJobCommand({ JobName: check.jobName, JobCategory: 'AgentRFTEvaluation' }));
      }
    },
  },
  {
    name: "#29 a training job's launch review without a signal check offers one: choosing it asks the check's first question",
    async run({ page, workspace, workspaceRoot }) {
      try {
        await openFile(page, workspaceRoot, path.join(workspace, 'signal', 'wordle-train.mtrl.json'));
        await palette(page, '>MTRL: Launch Job File', 'MTRL: Launch Job File');
        const offer = page.locator(`${QUICK_INPUT} .monaco-list-row`, { hasText: 'Choose to run one' }).first();
        await offer.waitFor({ timeout: ceiling(90_000) }).catch(async (error) => {
          const rows = await page.locator(`${QUICK_INPUT} .monaco-list-row`).allTextContents();
          throw new Error(`the review offers no signal check; it lists: ${rows.join(' | ')}`, { cause: error });
        });
        // The row's whole text, waited for as the row is drawn.
        const says = /Learning signal: no check for this dataset and runtime yet/;
        await offer
          .filter({ hasText: says })
          .waitFor({ timeout: ceiling(10_000) })
          .catch(() => undefined);
        assert.match(await offer.textContent(), says);
        await offer.click();
        await page.locator(QUICK_INPUT, { hasText: 'Check Learning Signal in the Cloud: reward' }).waitFor({ timeout: ceiling(30_000) });
        // Dismissing the question launches nothing and brings the review back.
        await page.keyboard.press('Escape');
        await offer.waitFor({ timeout: ceiling(30_000) });
      } finally {
        await page.keyboard.press('Escape');
        await palette(page, '>View: Close All Editors', 'View: Close All Editors');
      }
    },
  },
];
