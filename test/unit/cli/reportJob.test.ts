import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { HEALTH_JOBS, HEALTH_REGION } from '../../../src/emulator/seedHealth';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { ceiling } from '../../host/lib/ceiling';
import { launchChromium } from '../features/browser';
import { supportRecords } from '../features/replay/supportRollouts';
import { buildReportBundle, openOffline, run, screenshot } from './reportBrowser';

process.env.AWS_ACCESS_KEY_ID ??= 'test';
process.env.AWS_SECRET_ACCESS_KEY ??= 'test';

describe("mtrl report --job: the job's curves and health findings, through MLflow on the emulator", function () {
  this.timeout(ceiling(180_000));
  let emulator: Emulator;
  let browser: Browser;
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-report-job-'));

  before(async () => {
    await buildReportBundle();
    emulator = await startEmulator({});
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await emulator?.close();
  });

  it("adds the job's curves, with its health finding marked and said, to a file's rollouts", async () => {
    const { job, step } = HEALTH_JOBS['failing-rollouts'];
    const rollouts = path.join(dir, 'support.log');
    writeFileSync(rollouts, supportRecords(10, 4).join('\n') + '\n');
    const file = path.join(dir, 'job.html');
    const result = await run('report', rollouts, '--job', job, '--region', HEALTH_REGION, '--endpoint', emulator.url, '--html', file);
    assert.equal(result.code, 0, result.err);
    assert.equal(result.err, '');

    const { page, requests, problems } = await openOffline(browser, file);
    await page.waitForSelector('.report-curves .uplot');
    assert.equal(await page.locator('.report-header h1').innerText(), `MTRL report: ${job}`);
    assert.equal(await page.locator('.report-counts').innerText(), '40 rollouts · 10 groups');
    const titles = await page.locator('.report-curves .u-title').allInnerTexts();
    assert.ok(titles.includes('Reward per step'), titles.join(', '));
    assert.ok((await page.locator('.report-curves canvas').count()) >= 3, 'the fixed charts are drawn');
    assert.match(await page.locator('.report-health').innerText(), new RegExp(`Warning: failing-rollouts at step ${step}`));
    assert.equal(await page.locator(`.report-curves .chart[data-markers="${step}"]`).count(), 1, 'the finding is marked on its chart');
    await page.waitForSelector('.group-row[data-group]');
    await screenshot(page, 'report-job-light.png');
    assert.deepEqual(requests, []);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('writes nothing and exits 2 with a sentence when the job cannot be read', async () => {
    const rollouts = path.join(dir, 'support.log');
    const file = path.join(dir, 'nojob.html');
    const result = await run('report', rollouts, '--job', 'no-such-job', '--endpoint', emulator.url, '--html', file);
    assert.equal(result.code, 2);
    assert.match(result.err, /^mtrl report: Reading the metrics of no-such-job failed: .*does not exist/);
    assert.equal(existsSync(file), false);
  });
});
