import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, watchProblems } from '../browser';
import { BoardServer } from './browser';
import { rolloutLines } from '../../core/rollouts/games';
import { ceiling } from '../../../host/lib/ceiling';

const shots = path.resolve(__dirname, '../../../../test-results');

/** Three steps of 16 tasks × 8: the record's "step" field, as the demo agent and the emulator write it. */
function stepped(steps: number): string[] {
  const lines: string[] = [];
  for (let step = 1; step <= steps; step++) {
    for (const line of rolloutLines(128, step)) lines.push(JSON.stringify({ ...JSON.parse(line), step }));
  }
  return lines;
}

/** True when the element's box lies inside the viewport's width. */
const inside = (page: Page, selector: string) =>
  page.$eval(selector, (el) => {
    const box = el.getBoundingClientRect();
    return box.left >= 0 && box.right <= window.innerWidth + 0.5 && box.width > 0;
  });

describe('replay board: steps, GRPO groups, and a 900-px editor', function () {
  this.timeout(ceiling(60_000));
  let server: BoardServer;
  let browser: Browser;

  before(async () => {
    server = await BoardServer.start();
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens a job at its latest step, draws solve rate by step, and goes back with the picker', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = watchProblems(page);
    await page.goto(server.page('job', stepped(3), false, 'job'));
    await page.waitForSelector('.group-row[data-group]');
    assert.equal(await page.locator('.step-bar').count(), 3);
    assert.equal(await page.locator('.step-bar.chosen').count(), 1);
    assert.match((await page.textContent('.step-shown')) ?? '', /^step 3: solve rate \d+\.\d%, mean reward -?\d\.\d{3}$/);
    assert.match((await page.textContent('.group-row[data-group] .group-line.muted')) ?? '', /step 3/);
    // The summary is drawn after the groups: waited for, not read at once.
    await page.waitForFunction(() => /128\s*rollouts\s*16\s*groups/.test(document.querySelector('.summary')?.textContent ?? ''));
    assert.match((await page.textContent('.summary')) ?? '', /128\s*rollouts\s*16\s*groups/, 'one step: 16 tasks × 8 rollouts');
    assert.match(
      (await page.textContent('.group-note')) ?? '',
      /GRPO group: 8 rollouts of this task in step 3; advantage = \(reward − group mean\) \/ \(group std \+ 1e-6\)/,
    );

    await page.click('.step-bar[data-step="1"]');
    await page.waitForFunction(() => document.querySelector('.step-shown')?.textContent?.startsWith('step 1:'));
    await page.click('.step-bar[data-step="2"]', { modifiers: ['Shift'] });
    await page.waitForFunction(() => document.querySelector('.step-shown')?.textContent?.startsWith('steps 1–2:'));
    // The summary redraws after the step line: wait for it rather than read it at once.
    await page.waitForFunction(
      () => /256\s*rollouts\s*32\s*groups/.test(document.querySelector('.summary')?.textContent ?? ''),
      undefined,
      { timeout: ceiling(10_000) },
    );
    await page.click('vscode-button.step-all');
    await page.waitForFunction(() => /^3 steps:/.test(document.querySelector('.step-shown')?.textContent ?? ''));
    // The same task in three steps is three groups.
    await page.waitForFunction(
      () => /384\s*rollouts\s*48\s*groups/.test(document.querySelector('.summary')?.textContent ?? ''),
      undefined,
      { timeout: ceiling(10_000) },
    );
    assert.equal(await page.locator('.pooled-note').count(), 0);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('opens a job at the step it was asked for (a click on a metrics curve), not its latest', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.page('job-at-step', stepped(3), false, 'job', { filter: { steps: { from: 2, to: 2 } }, stepsPicked: true }));
    await page.waitForSelector('.group-row[data-group]');
    assert.match((await page.textContent('.step-shown')) ?? '', /^step 2: /);
    assert.match((await page.textContent('.group-row[data-group] .group-line.muted')) ?? '', /step 2/);
    assert.equal(await page.getAttribute('.step-bar.chosen', 'data-step'), '2');
    await page.close();
  });

  it("says groups are pooled and advantages are not the policy's when steps are unknown", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.page('pooled', rolloutLines(64, 4)));
    await page.waitForSelector('.group-row[data-group]');
    assert.match(
      (await page.textContent('.pooled-note')) ?? '',
      /64 rollouts have no known step: their groups pool every step of a task, so their advantages are not the policy's/,
    );
    assert.match((await page.textContent('.group-note')) ?? '', /Step unknown: this group pools every step/);
    await page.close();
  });

  it('fits a 900-px editor: the player, both compared boards and the histograms with counts', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
    const problems = watchProblems(page);
    await page.goto(server.page('narrow', stepped(2), false, 'job'));
    await page.waitForSelector('.group-row[data-group]');
    await page.waitForSelector('.player .tile-row');
    assert.ok(await inside(page, '.player .grid'), 'the board is not cut off');
    assert.ok(await inside(page, '.player .controls'), 'the controls are not cut off');
    const turnCount = await page.$eval('.turn-count', (el) => el.getBoundingClientRect().height);
    const line = await page.$eval('.turn-count', (el) => parseFloat(getComputedStyle(el).lineHeight) || 20);
    assert.ok(turnCount <= line * 1.5, '"turn 0 / n" stays on one line');
    assert.ok((await page.locator('.chart .count-axis').count()) >= 2, 'each histogram has a y-axis');
    await page.screenshot({ path: path.join(shots, 'replay-board-900.png'), fullPage: true });

    await page.click('.rollout-row[data-rollout]:nth-of-type(4) .compare-button');
    await page.waitForSelector('.players.comparing');
    assert.ok(await inside(page, '.players .player:nth-child(2) .grid'), 'the second board is on screen');
    await page.screenshot({ path: path.join(shots, 'replay-compare-900.png'), fullPage: true });
    assert.deepEqual(problems, []);
    await page.close();
  });
});
