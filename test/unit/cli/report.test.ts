import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { ceiling } from '../../host/lib/ceiling';
import { launchChromium } from '../features/browser';
import { supportRecords } from '../features/replay/supportRollouts';
import { RolloutPipeline } from '../../../src/core/rollouts';
import { signalReport } from '../../../src/core/signal/report';
import { signalChecksIn } from '../../../src/services/signal/checks';
import { buildReportBundle, openOffline, run, screenshot } from './reportBrowser';

describe('mtrl report: one HTML file opened from disk, offline', function () {
  this.timeout(ceiling(120_000));
  let browser: Browser;
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-report-'));
  const support = path.join(dir, 'support.log');

  before(async () => {
    await buildReportBundle();
    writeFileSync(support, supportRecords(10, 4).join('\n') + '\n');
    browser = await launchChromium();
  });
  after(() => browser?.close());

  it('writes a report of 40 support rollouts that asks for nothing, shows the counts and groups, and plays a rollout', async () => {
    const file = path.join(dir, 'support.html');
    const result = await run('report', support, '--html', file, '--scan');
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /^wrote .*support\.html \(\d+ KB\): 40 rollouts · 10 groups from /);
    const html = readFileSync(file, 'utf8');
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-/);
    assert.doesNotMatch(html, /<script[^>]+src=|<link /, 'nothing loaded from beside the file');

    const { page, requests, problems } = await openOffline(browser, file);
    await page.waitForSelector('.group-row[data-group]');
    assert.equal(await page.locator('.report-counts').innerText(), '40 rollouts · 10 groups');
    assert.equal(await page.locator('.group-row[data-group]').count(), 10);
    // Each group is labelled by its task's prompt: the part that tells tasks apart in the row, the whole prompt on hover.
    assert.match(await page.locator('.group-row[data-group]').first().innerText(), /…0: the customer's internet is down\./);
    assert.match(
      (await page.locator('.group-row[data-group]').first().getAttribute('title')) ?? '',
      /^Resolve ticket 0: the customer's internet is down\./,
    );
    await page.locator('.group-row[data-group]').first().click();
    await page.locator('.rollout-row[data-rollout]').first().click();
    await page.waitForFunction(() => (document.querySelector('.players')?.textContent ?? '').includes('take_support_action'));
    const player = await page.locator('.players').innerText();
    assert.match(player, /take_support_action/);
    assert.match(player, /check_outage/, "the call's arguments");
    await page.waitForSelector('.findings:not([hidden]) .finding');
    await screenshot(page, 'report-light.png');
    assert.deepEqual(requests, [], 'no request but the file itself');
    assert.deepEqual(problems, []);
    await page.context().close();

    const dark = await openOffline(browser, file, { colorScheme: 'dark' });
    await dark.page.waitForSelector('.group-row[data-group]');
    await dark.page.locator('.group-row[data-group]').nth(1).click();
    await dark.page.locator('.rollout-row[data-rollout]').first().click();
    await dark.page.waitForFunction(() => (document.querySelector('.players')?.textContent ?? '').includes('take_support_action'));
    const background = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, 'rgb(31, 31, 31)', "the reader's dark setting gives the dark colours");
    await screenshot(dark.page, 'report-dark.png');
    assert.deepEqual(dark.requests, []);
    await dark.page.context().close();
  });

  it('shows hostile transcript text as text and runs nothing', async () => {
    const payload = '<img src=x onerror="window.__xss = 1">';
    const record = JSON.stringify({
      mtrl_rollout: 1,
      trajectory_id: 'hostile-1',
      prompt: `Task ${payload} </script><script>window.__xss = 2</script>`,
      step: 1,
      reward: 0.5,
      turns: [
        {
          thinking: `Thinking ${payload}`,
          tool_calls: [{ name: `take_${payload}`, arguments: JSON.stringify({ action: payload }), result: payload }],
        },
      ],
    });
    const log = path.join(dir, 'hostile.log');
    writeFileSync(log, `${record}\n`);
    const file = path.join(dir, 'hostile.html');
    assert.equal((await run('report', log, '--html', file)).code, 0);
    const { page, requests, problems } = await openOffline(browser, file);
    await page.locator('.group-row[data-group]').first().click();
    await page.locator('.rollout-row[data-rollout]').first().click();
    await page.waitForFunction(() => (document.querySelector('.players')?.textContent ?? '').includes('Thinking <img'));
    const text = (await page.textContent('#root')) ?? '';
    assert.ok(text.includes(`Thinking ${payload}`), 'thinking shown as text');
    assert.ok(text.includes('</script><script>window.__xss = 2</script>'), 'the prompt shown as text');
    assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, 'no payload ran');
    assert.equal(await page.locator('img, #root script, [onerror]').count(), 0);
    assert.deepEqual(requests, [], 'the payload asked for nothing');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('adds the newest learning-signal check kept in a store (--signal STORE)', async () => {
    const pipeline = new RolloutPipeline();
    for (const text of supportRecords(10, 4)) pipeline.feed({ text });
    const store = mkdtempSync(path.join(dir, 'store-'));
    const key = { dataset: 'tickets.csv', runtime: 'support_agent.py', reward: 'sha256:abc' };
    const report = signalReport(pipeline.finish());
    await signalChecksIn(store).keep({ key, at: '2026-12-05T10:00:00Z', route: 'local', status: 'done', groupSize: 4, rows: 10, report });
    const file = path.join(dir, 'signal.html');
    const result = await run('report', support, '--signal', store, '--html', file);
    assert.equal(result.code, 0, result.err);
    const { page, requests, problems } = await openOffline(browser, file);
    await page.waitForSelector('.group-row[data-group]');
    assert.deepEqual(problems, []);
    const section = await page.locator('.report-signal').innerText();
    assert.match(section, /^Learning signal\n+Signal check of tickets\.csv with support_agent\.py · Dec 5, 2026/);
    assert.match(section, new RegExp(`${report.zeroAdvantage.groups} of 10 groups`), 'the headline counts the flat groups');
    await screenshot(page, 'report-signal-light.png');
    assert.deepEqual(requests, []);
    await page.context().close();

    const empty = await run('report', support, '--signal', mkdtempSync(path.join(dir, 'empty-store-')), '--html', file);
    assert.equal(empty.code, 2);
    assert.match(empty.err, /no signal check is kept there/);
  });

  it('exits 2 with a sentence when there is nothing to write or nowhere to write it', async () => {
    const empty = path.join(dir, 'empty.log');
    writeFileSync(empty, 'nothing here\n');
    const none = await run('report', empty, '--html', path.join(dir, 'none.html'));
    assert.equal(none.code, 2);
    assert.match(none.err, /no rollouts in/);
    const folder = await run('report', support, '--html', dir);
    assert.equal(folder.code, 2);
    assert.match(folder.err, /is a folder: give a file name/);
    const unwritable = await run('report', support, '--html', path.join(dir, 'missing', 'x.html'));
    assert.equal(unwritable.code, 2);
    assert.match(unwritable.err, /cannot write/);
    assert.equal((await run('report', support)).code, 2, '--html is required');
  });

  it('stays under 5 MB for 1,000 rollouts', async () => {
    const big = path.join(dir, 'big.log');
    writeFileSync(big, supportRecords(25, 8, 5).join('\n') + '\n');
    const file = path.join(dir, 'big.html');
    const result = await run('report', big, '--html', file, '--scan');
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /1,000 rollouts · 125 groups/);
    assert.ok(statSync(file).size < 5 * 1024 * 1024, `${statSync(file).size} bytes`);
  });
});
