// UI check of the run health notification (#39) as the workbench shows it: the toast of a running job's finding with Open
// Curves and Stop Job inside the window, and Stop Job asking first. Once per finding, remembered across a reload, and
// what each answer runs: test/unit/features/health/watch.test.ts.
import assert from 'node:assert/strict';
import { DescribeJobCommand, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { heldToast } from '../lib/toasts.mjs';
import { ceiling } from '../lib/wait.mjs';
import { openJobsView, setWorkspaceSetting } from './jobs.mjs';

// The emulator's seeded running job with no new step since step 8 (src/emulator/seedHealth.ts), in us-west-2.
const STALLED = 'wordle-grpo-stalled';
const WEST = 'us-west-2';

export const checks = [
  {
    name: "health notification: a running job's finding as a toast with Open Curves and Stop Job inside the window; Stop Job asks first",
    polling: true,
    async run({ page, emulatorUrl, workspaceRoot, screenshot }) {
      if (!emulatorUrl) return 'skipped: no emulator, so no running job';
      setWorkspaceSetting(workspaceRoot, 'mtrl.jobs.refreshSeconds', 5);
      setWorkspaceSetting(workspaceRoot, 'mtrl.aws.regions', ['us-east-1', WEST]);
      await openJobsView(page);
      const stalled = await heldToast(page, `${STALLED}: stalled at step 8.`, ceiling(60_000));
      assert.match(await stalled.innerText(), /No new step since step 8, .* ago, while a step has taken about /);
      for (const button of ['Open Curves', 'Stop Job'])
        assert.equal(await stalled.locator('.monaco-button', { hasText: button }).count(), 1, `no ${button} button`);
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
      await stalled.locator('.monaco-button', { hasText: 'Stop Job' }).click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: ceiling(10_000) });
      assert.match(await dialog.innerText(), new RegExp(`Stop ${STALLED}\\?`));
      await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden', timeout: ceiling(10_000) });

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
