// UI check (#17, #26, #38): the replay board (Wordle and a support agent), its compare view and the support scenarios'
// scores view in a 900-px-wide editor of the real workbench, in the light and the dark theme; screenshots in test-results/host/ for a person to look at.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openBoard, palette } from './replay.mjs';
import { openFromExplorer, scoresFrame } from './reward-lens.mjs';
import { ceiling } from '../lib/wait.mjs';

const WIDTH = 900;
const VIEWPORT = { width: 1400, height: 900 };

/** Sizes the browser so the editor part is `width` px wide (the side bar keeps its width). */
export async function editorWidth(page, width) {
  await page.setViewportSize(VIEWPORT);
  const editor = page.locator('.monaco-workbench .part.editor');
  const box = await editor.boundingBox();
  await page.setViewportSize({ width: Math.round(VIEWPORT.width - (box.width - width)), height: VIEWPORT.height });
  await page.waitForFunction(
    (w) => Math.abs(document.querySelector('.monaco-workbench .part.editor').getBoundingClientRect().width - w) <= 1,
    width,
    { timeout: ceiling(10_000) },
  );
}

/** Switches to the light or the dark theme; the workbench marks it with `vs` / `vs-dark` on its root. */
export async function theme(page, kind) {
  const dark = () => page.evaluate(() => document.querySelector('.monaco-workbench').classList.contains('vs-dark'));
  if ((await dark()) === (kind === 'dark')) return;
  await palette(page, '>Preferences: Toggle between Light/Dark Themes', 'Toggle between Light/Dark Themes');
  await page.waitForFunction(
    (want) => document.querySelector('.monaco-workbench').classList.contains('vs-dark') === want,
    kind === 'dark',
    { timeout: ceiling(10_000) },
  );
}

/** Where the element lies across its frame's viewport, and whether it is inside it: not cut off at the editor's edge. */
async function placed(frame, selector) {
  return frame
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      const width = document.documentElement.clientWidth;
      return {
        inside: r.width > 0 && r.left >= 0 && r.right <= width + 1,
        at: `${Math.round(r.left)}–${Math.round(r.right)} of ${width} px`,
      };
    });
}

async function assertInside(frame, selector, what) {
  const where = await placed(frame, selector);
  assert.ok(where.inside, `${what} is cut off: ${where.at}`);
}

const tab = (page, text) => page.locator('.tabs-container .tab', { hasText: text }).first();

export const checks = [
  {
    name: '#17 narrow editor: board, compare and reward scores at 900 px in the light and the dark theme',
    async run({ page, workspace, workspaceRoot, screenshot }) {
      await palette(page, '>View: Close All Editors', 'View: Close All Editors');
      await editorWidth(page, WIDTH);
      try {
        const board = await openBoard(page, workspaceRoot, path.join(workspace, 'replay', 'rollouts.log'));
        await board
          .locator('.player .tile-row')
          .first()
          .waitFor({ timeout: ceiling(15_000) });
        for (const kind of ['light', 'dark']) {
          await theme(page, kind);
          await assertInside(board, '.player .grid', `${kind}: the board's player`);
          await assertInside(board, '.player .controls', `${kind}: the player's controls`);
          await screenshot(`narrow-board-${kind}`);
          await board.locator('.rollout-row[data-rollout]').nth(1).locator('.compare-button').click();
          await board.locator('.players.comparing').waitFor({ timeout: ceiling(10_000) });
          await assertInside(board, '.players.comparing > :nth-child(2) .grid', `${kind}: the compared board`);
          await screenshot(`narrow-compare-${kind}`);
          await board.locator('.rollout-row.compared .compare-button').click();
          await board.locator('.players:not(.comparing)').waitFor({ timeout: ceiling(10_000) });
        }

        // Any agent: a support agent's transcript, its compared rollout and the action table fit too.
        await palette(page, '>View: Close All Editors', 'View: Close All Editors');
        const support = await openBoard(page, workspaceRoot, path.join(workspace, 'replay', 'support-rollouts.log'));
        await support.locator('.group-row[data-group][title^="Resolve ticket 0:"]').first().click();
        await support
          .locator('.player .tool-call')
          .first()
          .waitFor({ timeout: ceiling(15_000) });
        for (const kind of ['light', 'dark']) {
          await theme(page, kind);
          await assertInside(support, '.player .tool-call', `${kind}: a tool-call card`);
          await assertInside(support, '.action-table', `${kind}: the action table`);
          await support.locator('.rollout-row[data-rollout]').nth(2).locator('.compare-button').click();
          await support.locator('.players.comparing .player:nth-child(2) .turn.differs').waitFor({ timeout: ceiling(10_000) });
          await assertInside(support, '.players.comparing > :nth-child(2) .tool-call', `${kind}: the compared transcript`);
          await screenshot(`narrow-support-${kind}`);
          await support.locator('.rollout-row.compared .compare-button').click();
          await support.locator('.players:not(.comparing)').waitFor({ timeout: ceiling(10_000) });
        }

        // The support scenarios' scores: a bar each, and a scenario's transcript drawn with the board's generic renderer.
        await palette(page, '>View: Close All Editors', 'View: Close All Editors');
        await openFromExplorer(page, [path.basename(workspace), 'reward-scenarios'], 'support.mtrl-reward.json');
        await palette(page, '>MTRL: Show Reward Scenario Scores', 'MTRL: Show Reward Scenario Scores');
        await tab(page, 'Reward scores').waitFor({ timeout: ceiling(60_000) });
        // The view opens beside the file: closing the file closes its group, so the view has the whole 900 px.
        await tab(page, /^\s*support\.mtrl-reward\.json/).click({ button: 'middle' });
        await tab(page, /^\s*support\.mtrl-reward\.json/).waitFor({ state: 'detached', timeout: ceiling(10_000) });
        await page.waitForFunction(() => document.querySelectorAll('.part.editor .tabs-container').length === 1, undefined, {
          timeout: ceiling(10_000),
        });
        const scores = await scoresFrame(page);
        await scores.locator('.scenario[data-scenario="ideal"] > summary').click();
        await scores
          .locator('.scenario[data-scenario="ideal"] .tool-call')
          .first()
          .waitFor({ timeout: ceiling(10_000) });
        for (const kind of ['dark', 'light']) {
          await theme(page, kind);
          await assertInside(scores, '.scenario .track', `${kind}: a scenario's bar`);
          await assertInside(scores, '.scenario[data-scenario="ideal"] .tool-call', `${kind}: the ideal scenario's tool call`);
          await assertInside(scores, '.expectations', `${kind}: the expectations`);
          await screenshot(`narrow-scores-${kind}`);
        }
      } finally {
        await theme(page, 'light').catch(() => undefined);
        await page.setViewportSize(VIEWPORT);
      }
    },
  },
];
