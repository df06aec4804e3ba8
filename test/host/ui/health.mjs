// UI check of the run health notification (#39): one per new finding of a running job, with Open Curves and Stop Job
// (which asks first), remembered per job and kind across a window reload. The group starts with nothing remembered.
import assert from 'node:assert/strict';
import { DescribeJobCommand, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { ceiling } from '../lib/wait.mjs';
import { openJobsView, rowByName, setWorkspaceSetting } from './jobs.mjs';
import { metricsFrame } from './metrics.mjs';
import { reloadWindow } from './reward-lens.mjs';

// The emulator's seeded running job with no new step since step 8 (src/emulator/seedHealth.ts), in us-west-2.
const STALLED = 'wordle-grpo-stalled';
const WEST = 'us-west-2';
const toasts = (page, text) => page.locator('.notifications-toasts .notification-toast', { hasText: text });

export const checks = [
  {
    name: 'health notification: one per new finding of a running job, Open Curves and Stop Job (asks first), remembered across a reload',
    polling: true,
    async run({ page, emulatorUrl, workspaceRoot, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no running job';
      setWorkspaceSetting(workspaceRoot, 'mtrl.jobs.refreshSeconds', 5);
      setWorkspaceSetting(workspaceRoot, 'mtrl.aws.regions', ['us-east-1', WEST]);
      await openJobsView(page);
      const stalled = toasts(page, `${STALLED}: stalled at step 8.`);
      await stalled.first().waitFor({ timeout: ceiling(60_000) });
      assert.match(await stalled.first().innerText(), /No new step since step 8, .* ago, while a step has taken about /);
      for (const button of ['Open Curves', 'Stop Job'])
        assert.equal(await stalled.first().locator('.monaco-button', { hasText: button }).count(), 1, `no ${button} button`);
      // The toast slides in from below: the screenshot waits until its buttons are inside the window.
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('.notifications-toasts .notification-toast .monaco-button')].some(
            (b) => b.textContent?.trim() === 'Stop Job' && b.getBoundingClientRect().bottom <= window.innerHeight,
          ),
        undefined,
        { timeout: ceiling(10_000) },
      );
      await screenshot('health-notification');

      // Stop Job asks first; Cancel leaves the job running.
      await stalled.first().locator('.monaco-button', { hasText: 'Stop Job' }).click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: ceiling(10_000) });
      assert.match(await dialog.innerText(), new RegExp(`Stop ${STALLED}\\?`));
      await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden', timeout: ceiling(10_000) });

      // A fresh extension host lists the job and checks it again: the row shows the finding, no notification comes.
      await reloadWindow(page);
      await openJobsView(page);
      // Only us-west-2, where the stalled job is the one running.
      setWorkspaceSetting(workspaceRoot, 'mtrl.aws.regions', [WEST]);
      await rowByName(page, STALLED)
        .locator('.label-description', { hasText: 'stalled at step 8' })
        .waitFor({ timeout: ceiling(60_000) });
      // A threshold every rollout share crosses, set after that check: a later check of the running job (its poll) finds a
      // new kind on the same job, and notifies it. A forgotten stalled finding would have been notified by the first check.
      setWorkspaceSetting(workspaceRoot, 'mtrl.health.failedRolloutShare', 0);
      const failing = toasts(page, `${STALLED}: failing-rollouts at step `);
      await failing.first().waitFor({ timeout: ceiling(90_000) });
      assert.equal(await failing.count(), 1);
      await failing.first().locator('.monaco-button', { hasText: 'Open Curves' }).click();
      await metricsFrame(page, STALLED);
      assert.equal(await stalled.count(), 0, 'the stalled finding was notified again after the reload');

      const sagemaker = new SageMakerClient({
        endpoint: emulatorUrl,
        region: WEST,
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      const job = await sagemaker.send(new DescribeJobCommand({ JobName: STALLED, JobCategory: 'AgentRFT' }));
      assert.equal(job.JobStatus, 'InProgress', 'Cancel in the Stop Job dialog stopped the job');
    },
  },
];
