import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, watchProblems } from '../browser';
import { BoardServer } from './browser';
import { realSupportTraces, realWordleTrace, supportRecords } from './supportRollouts';
import { ceiling } from '../../../host/lib/ceiling';

const shots = path.resolve(__dirname, '../../../../test-results');
const lines = [...realSupportTraces(), ...supportRecords(6, 4, 2)];

/** The light theme's colours, as VS Code sets them on a webview's root. */
async function light(page: Page): Promise<void> {
  await page.evaluate(() => {
    const vars: Record<string, string> = {
      '--vscode-foreground': '#3b3b3b',
      '--vscode-editor-background': '#ffffff',
      '--vscode-descriptionForeground': '#717171',
      '--vscode-textCodeBlock-background': '#f2f2f2',
      '--vscode-panel-border': '#e5e5e5',
      '--vscode-list-activeSelectionBackground': '#e8e8e8',
      '--vscode-list-activeSelectionForeground': '#000000',
      '--vscode-list-hoverBackground': '#f2f2f2',
      '--vscode-badge-background': '#cccccc',
      '--vscode-badge-foreground': '#3b3b3b',
    };
    for (const [name, value] of Object.entries(vars)) document.documentElement.style.setProperty(name, value);
  });
}

describe('replay board for any agent (a support agent with tool calls)', function () {
  this.timeout(ceiling(60_000));
  let server: BoardServer;
  let browser: Browser;

  before(async () => {
    mkdirSync(shots, { recursive: true });
    server = await BoardServer.start();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists groups by task, shows a transcript with folded thinking and tool-call cards, and steps through it by keyboard', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchProblems(page);
    await page.goto(server.page('support', lines));
    await page.waitForSelector('.group-row[data-group]');
    const labels = await page.$$eval('.group-row[data-group]', (els) => els.map((e) => e.getAttribute('title')));
    assert.ok(
      labels.includes("Resolve the customer's internet outage. Customer says: My Wi-Fi works, but websites do not load."),
      `the real task by its first line: ${labels.join(' | ')}`,
    );
    assert.ok(
      labels.some((l) => l?.startsWith('Resolve ticket 0')),
      'each ticket is its own group',
    );
    // The row shows the part of the task that tells it from the others (the tickets share a template's first words).
    const shown = await page.$$eval('.group-row[data-group] .group-label', (els) => els.map((e) => e.textContent));
    assert.ok(shown.includes("…0: the customer's internet is down."), shown.join(' | '));
    assert.match((await page.textContent('.group-row[data-group] .group-solved')) ?? '', /^\d+\/\d+ solved$/);

    await page.locator('.group-row[data-group][title^="Resolve ticket 1"]').first().click();
    await page.waitForFunction(() => document.querySelectorAll('.rollout-row[data-rollout]').length === 4);
    const header = await page.$$eval('.rollout-row.header span', (els) => els.map((e) => e.textContent));
    assert.deepEqual(header.slice(0, 5), ['trajectory', 'reward', 'advantage', 'turns', 'tools']);

    // A transcript opens whole: every turn, thinking folded, each call a card with its arguments as readable JSON.
    await page.waitForSelector('.player .tool-call');
    assert.match((await page.textContent('.player .turn-count')) ?? '', /^turn (\d) \/ \1$/);
    assert.equal(await page.textContent('.player .tool-call .tool-name'), 'take_support_action');
    assert.equal(await page.textContent('.player .tool-call .tool-part pre'), '{\n  "action": "check_outage"\n}');
    assert.equal(await page.locator('.player details.thinking[open]').count(), 0, 'thinking starts folded');
    await page.locator('.player details.thinking summary').first().click();
    assert.equal(await page.locator('.player details.thinking[open]').count(), 1);
    assert.match((await page.textContent('.player details.thinking[open] .thinking-text')) ?? '', /the next check is check_outage/);
    assert.equal(
      await page.getAttribute('.player .tool-call', 'aria-label'),
      'Turn 1, tool call 1: take_support_action action=check_outage',
    );

    await page.focus('.player');
    await page.keyboard.press('Home');
    assert.match((await page.textContent('.player .turn-count')) ?? '', /^turn 0 \//);
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('.player .turn-list > .turn').count(), 1);
    assert.equal(await page.locator('.player details.thinking[open]').count(), 1, 'an opened thinking stays open while stepping');
    await page.keyboard.press('End');

    // The failed rollout: its status, its error and the failed call are marked.
    await page.locator('.rollout-row[data-rollout]').nth(3).click();
    await page.waitForSelector('.player .tool-call.failed');
    assert.equal(await page.textContent('.player .badge.outcome-error'), 'error');
    assert.match((await page.textContent('.player .tool-error')) ?? '', /timed out/);

    await page.screenshot({ path: path.join(shots, 'replay-support.png') });
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('adds metrics columns, compares two rollouts with the first different turn marked, and sorts the action table by keyboard', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchProblems(page);
    await page.goto(server.page('support-compare', lines));
    await page.waitForSelector('.group-row[data-group]');
    await page.locator('.group-row[data-group][title^="Resolve ticket 0"]').first().click();
    await page.waitForFunction(() => document.querySelectorAll('.rollout-row[data-rollout]').length === 4);

    await page.locator('vscode-multi-select.metric-columns').evaluate((el) => {
      (el as unknown as { value: string[] }).value = ['progress_steps'];
      el.dispatchEvent(new Event('change'));
    });
    await page.waitForSelector('.rollout-row.header span[title="metrics.progress_steps"]');
    const progress = await page.$$eval('.rollout-row[data-rollout] .metric', (els) => els.map((e) => e.textContent));
    assert.equal(progress.length, 4);
    assert.ok(
      progress.every((p) => /^[0-4]$/.test(p ?? '')),
      `progress per rollout: ${progress.join(',')}`,
    );

    // ↓ moves between rollouts, Enter replays one.
    await page.locator('.rollout-row[data-rollout]').nth(0).focus();
    await page.keyboard.press('ArrowDown');
    const second = await page.locator('.rollout-row[data-rollout]').nth(1).getAttribute('data-rollout');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-rollout')), second);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.rollout-row[data-rollout="${second}"][aria-selected="true"]`);

    // Rollouts 1 and 3 of ticket 0 in step 1: at turn 4 the first applies the fix, the third restarts the router.
    await page.locator('.rollout-row[data-rollout]').nth(0).click();
    await page.locator('.rollout-row[data-rollout]').nth(2).locator('.compare-button').click();
    await page.waitForSelector('.players.comparing .player:nth-child(2) .tool-call');
    const marked = await page.$$eval('.players .player', (players) =>
      players.map((p) => p.querySelector('.turn.differs')?.getAttribute('data-turn')),
    );
    assert.equal(marked.length, 2);
    assert.deepEqual(marked, ['4', '4'], 'both boards mark turn 4, where one applies the fix and the other restarts the router');
    assert.match((await page.textContent('.players .player .turn.differs .badge-differs')) ?? '', /first difference/);

    // The action table: restarting the router goes with below-average rollouts.
    await page.waitForSelector('.action-table tbody tr');
    const rows = await page.$$eval('.action-table tbody tr', (trs) =>
      trs.map((tr) => [tr.querySelector('.action-name')?.textContent, tr.lastElementChild?.textContent]),
    );
    const restart = rows.findIndex(([name]) => name === 'take_support_action action=restart_router');
    assert.ok(restart >= 0 && restart < 2, `restarting the router is among the most telling calls: ${JSON.stringify(rows)}`);
    assert.ok(parseInt(rows[restart][1] ?? '', 10) <= -50, `and goes with below-average rollouts: ${rows[restart][1]}`);
    await page.focus('.action-table button[data-sort="below"]');
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('.action-table th:nth-child(3)', 'aria-sort'), 'descending');
    const below = await page.$$eval('.action-table tbody tr td:nth-child(3)', (els) => els.map((e) => parseInt(e.textContent ?? '', 10)));
    assert.deepEqual(
      below,
      [...below].sort((a, b) => b - a),
      'sorted by the below-average share',
    );
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-sort')), 'below', 'focus stays on the header');
    // The table scrolls with its own keys: Home there leaves the player where it is.
    const before = await page.textContent('.players .player:first-child .turn-count');
    await page.focus('.actions-scroll');
    await page.keyboard.press('Home');
    assert.equal(await page.textContent('.players .player:first-child .turn-count'), before);

    await page.screenshot({ path: path.join(shots, 'replay-support-compare.png') });
    assert.deepEqual(problems, []);
    await page.close();
  });

  it("draws a Wordle trace with the pack's tiles, and the reasoning behind each guess folded under it", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchProblems(page);
    await page.goto(server.page('wordle-trace', [realWordleTrace(), ...realSupportTraces()]));
    await page.locator('.group-row[data-group]', { hasText: 'CRANE' }).click();
    await page.waitForSelector('.player .grid');
    assert.equal(await page.textContent('.player-header h2'), 'CRANE');
    assert.equal(await page.locator('.player .tool-call').count(), 0, 'tiles, not tool-call cards');
    await page.focus('.player');
    await page.keyboard.press('End');
    const rows = await page.$$eval('.player .tile-row', (els) => els.slice(0, 2).map((r) => r.getAttribute('aria-label')));
    assert.deepEqual(rows, ['Guess 1: SLATE', 'Guess 2: CRANE']);
    assert.equal(await page.locator('.player details.thinking').count(), 1, "the current guess's thinking");
    await page.locator('.group-row[data-group]', { hasText: 'Resolve' }).click();
    await page.waitForSelector('.player .tool-call');
    assert.equal(await page.locator('.player .grid').count(), 0, 'another agent gets the generic view');
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const theme of ['dark', 'light'] as const)
    it(`fits a 900-px editor in the ${theme} theme: transcript, compared boards and action table`, async () => {
      const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
      await page.goto(server.page(`support-900-${theme}`, lines));
      if (theme === 'light') await light(page);
      await page.waitForSelector('.group-row[data-group]');
      await page.locator('.group-row[data-group][title^="Resolve ticket 0"]').first().click();
      await page.waitForSelector('.player .tool-call');
      await page.locator('.rollout-row[data-rollout]').nth(1).locator('.compare-button').click();
      await page.waitForSelector('.players.comparing .player:nth-child(2) .tool-call');
      const overflow = await page.evaluate(() =>
        [...document.querySelectorAll('.player, .tool-call, .action-table, .rollout-row')]
          .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
          .map((el) => el.className),
      );
      assert.deepEqual(overflow, [], 'nothing runs off the right edge');
      await page.screenshot({ path: path.join(shots, `replay-support-900-${theme}.png`), fullPage: true });
      await page.close();
    });
});
