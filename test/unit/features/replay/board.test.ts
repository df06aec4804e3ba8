import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, watchProblems } from '../browser';
import { BoardServer } from './browser';
import { rolloutLines } from '../../core/rollouts/games';
import { ceiling } from '../../../host/lib/ceiling';

const known = {
  mtrl_rollout: 1,
  trajectory_id: 'known-1',
  row_id: 'wordle_val_0001',
  answer: 'crane',
  turns: [{ guess: 'slate' }, { guess: 'xx', valid: false }, { guess: 'trace', source: 'text' }, { guess: 'crane' }],
  solved: true,
  reward: 1.279,
  outcome: 1.25,
  shaping: 0.72,
};
const lines = [JSON.stringify(known), ...rolloutLines(63, 3)];
/** A tile's colour, once the tile is drawn (the player draws a rollout after the page asks for it). */
async function rgb(page: Page, selector: string): Promise<string> {
  await page.waitForSelector(selector);
  return page.$eval(selector, (el) => getComputedStyle(el).backgroundColor);
}

describe('replay board in Chromium', function () {
  this.timeout(ceiling(60_000));
  let server: BoardServer;
  let browser: Browser;

  before(async () => {
    server = await BoardServer.start();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists groups, replays a game to the end with the right tile colours, and compares two rollouts', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = watchProblems(page);
    await page.goto(server.page('board', lines));
    await page.waitForSelector('.group-row[data-group]');
    const labels = await page.$$eval('.group-row[data-group] .group-label', (els) => els.map((e) => e.textContent));
    assert.equal(labels[0], 'CRANE', 'the known rollout is the first group (answer crane, row wordle_val_0001)');
    assert.ok(labels.length > 5, `several groups rendered, got ${labels.length}`);
    assert.equal(await page.textContent('.pane-title'), 'CRANE · step unknown: 1 rollout');
    // The components the agent reported (outcome, shaping) on the group's row and the rollout's: not a sum of 1.279, so listed.
    assert.equal(await page.textContent('.group-row[data-group]:first-child .group-components'), '(outcome 1.25 · shaping 0.72)');
    assert.equal(await page.textContent('.rollout-row[data-rollout] .rollout-components'), '(outcome 1.25 · shaping 0.72)');

    await page.locator('vscode-single-select.speed').evaluate((el) => {
      (el as HTMLSelectElement).value = '4';
      el.dispatchEvent(new Event('change'));
    });
    await page.click('.player vscode-button.control-play');
    await page.waitForFunction(() => document.querySelector('.turn-count')?.textContent === 'turn 4 / 4', undefined, {
      timeout: ceiling(10_000),
    });
    const rows = await page.$$eval('.player .tile-row', (els) =>
      els.map((row) => [...row.querySelectorAll('.tile')].map((t) => `${t.textContent}${t.getAttribute('data-mark')}`).join(' ')),
    );
    assert.deepEqual(rows.slice(0, 3), ['SX LX AG TX EG', 'TX RG AG CY EG', 'CG RG AG NG EG'], 'the invalid turn takes no row');
    assert.equal(await page.getAttribute('.player .tile-row:first-child .tile:nth-child(3)', 'aria-label'), 'A green');
    assert.equal(await rgb(page, '.player .tile-row:first-child .tile:nth-child(3)'), 'rgb(83, 141, 78)');
    assert.equal(await rgb(page, '.player .tile-row:first-child .tile:nth-child(1)'), 'rgb(107, 110, 112)');
    assert.equal(await rgb(page, '.player .tile-row:nth-child(2) .tile:nth-child(4)'), 'rgb(181, 159, 59)');
    assert.match((await page.textContent('.player .feedback')) ?? '', /Guess 3\/6: CRANE — all green/);
    assert.equal(await page.locator('.player .badge-invalid').count(), 1);
    assert.equal(await page.locator('.player .badge-text').count(), 1);
    assert.match((await page.textContent('.player .reward-line')) ?? '', /reward 1\.279.*outcome 1\.250.*shaping 0\.720/);

    mkdirSync(path.resolve(__dirname, '../../../../test-results'), { recursive: true });
    await page.screenshot({ path: path.resolve(__dirname, '../../../../test-results/replay-board.png') });

    await page.focus('.player');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.textContent('.turn-count'), 'turn 3 / 4');
    await page.keyboard.press('ArrowLeft');
    assert.match((await page.textContent('.player .feedback')) ?? '', /Invalid guess 'xx'/);

    await page.click('.group-row[data-group]:nth-child(2)');
    await page.waitForFunction(() => document.querySelectorAll('.rollout-row[data-rollout]').length === 8);
    await page.click('.rollout-row[data-rollout]:nth-of-type(4) .compare-button');
    await page.waitForSelector('.players.comparing');
    assert.equal(await page.locator('.players .player').count(), 2);

    assert.deepEqual(problems, []);
    await page.close();
  });

  it('filters by outcome and search, and says so when nothing matches', async () => {
    const page = await browser.newPage();
    await page.goto(server.page('filters', lines));
    await page.waitForSelector('.group-row[data-group]');
    await page.fill('vscode-textfield.filter-search input', 'wordle_val');
    await page.waitForFunction(() => document.querySelectorAll('.group-row[data-group]').length === 1);
    await page.click('vscode-checkbox.filter-solved');
    await page.waitForSelector('text=No rollout matches the filters');
    await page.fill('vscode-textfield.filter-min input', 'abc');
    await page.waitForSelector('text="abc" is not a number: that bound is ignored.');
    assert.equal(await page.getAttribute('vscode-textfield.filter-min', 'invalid'), '');
    await page.close();
  });

  it('keeps only visible group rows in the DOM and fetches pages as the list scrolls', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.page('virtual', rolloutLines(4000, 9)));
    await page.waitForSelector('.group-row[data-group]');
    // The summary is drawn after the groups: waited for, not read at once.
    await page.waitForFunction(() =>
      /4000\s*rollouts\s*500 \(500 step unknown\)\s*groups/.test(document.querySelector('.summary')?.textContent ?? ''),
    );
    assert.match((await page.textContent('.summary')) ?? '', /4000\s*rollouts\s*500 \(500 step unknown\)\s*groups/);
    const before = await page.locator('.group-row').count();
    assert.ok(before < 40, `only the visible rows exist, got ${before}`);
    await page.$eval('.group-list', (el) => (el.scrollTop = el.scrollHeight));
    await page.waitForSelector('.group-row[data-group="499"]');
    assert.ok((await page.locator('.group-row').count()) < 40);
    await page.close();
  });

  it('uses the colour-blind palette when the setting is on', async () => {
    const page = await browser.newPage();
    await page.goto(server.page('colorblind', lines, true));
    await page.waitForSelector('.player .grid');
    await page.focus('.player');
    await page.keyboard.press('ArrowRight');
    assert.equal(await rgb(page, '.player .tile-row:first-child .tile:nth-child(3)'), 'rgb(245, 121, 58)');
    await page.close();
  });

  it('shows an explicit empty state', async () => {
    const page = await browser.newPage();
    await page.goto(server.page('empty', ['hello', 'not a rollout']));
    await page.waitForSelector('text=No rollouts in the embedded lines.');
    assert.equal(await page.isVisible('.panes'), false);
    await page.close();
  });
});
