// UI check of the replay board (#5) in the real workbench: open a log file "With…" the board, read the webview frame, play a turn, screenshot.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ceiling, frameShowing } from '../lib/wait.mjs';
import { QUICK_INPUT } from '../lib/quick-input.mjs';

/** Runs `text` in Quick Open (F1; a `>` prefix for commands) and clicks the first row with `pick` (text, or a row locator). */
export async function palette(page, text, pick) {
  const input = page.locator(`${QUICK_INPUT} input`);
  const row = typeof pick === 'function' ? pick : () => page.locator(`${QUICK_INPUT} .monaco-list-row`, { hasText: pick });
  for (let attempt = 1; ; attempt++) {
    // The previous pick's quick input may stay open a moment after its pick (one closing never counts as open): typing
    // into it would be lost.
    await input.waitFor({ state: 'hidden', timeout: ceiling(2_000) }).catch(() => undefined);
    // F1 is lost while focus sits in a webview or an opening editor: retry from the workbench.
    for (let tries = 0; tries < 4 && !(await input.isVisible()); tries++) {
      if (tries)
        await page
          .locator('.part.statusbar')
          .click({ position: { x: 5, y: 5 } })
          .catch(() => undefined);
      await page.keyboard.press('F1');
      await input.waitFor({ timeout: ceiling(3_000) }).catch(() => undefined);
    }
    try {
      await input.fill(text, { timeout: ceiling(10_000) });
      await row()
        .first()
        .click({ timeout: ceiling(15_000) });
      return;
    } catch (error) {
      // A webview that finishes loading takes focus and closes the quick input under the typing: open it again.
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/**
 * The webview's inner frame that holds the board, once it has rendered a group. With `source` (the board's title: the
 * file's path in the opened folder) only that file's board counts, never the frame of a board closed a moment before.
 */
export function boardFrame(page, timeoutMs = ceiling(90_000), source) {
  const groups = (frame) =>
    source
      ? frame
          .locator('body')
          .filter({ has: frame.locator('.toolbar h1', { hasText: source }) })
          .locator('.group-row[data-group]')
      : frame.locator('.group-row[data-group]');
  return frameShowing(page, `a webview frame showing a group row${source ? ` of ${source}` : ''}`, groups, { timeoutMs });
}

/**
 * Opens a file of a check's copy with Quick Open: typed as its path in the opened folder and picked by its exact name,
 * so never a same-named file elsewhere (`signal/refund-check/rollouts.log`) or a longer name (`support-rollouts.log`).
 * Returns that path, which is also the title of a board opened on the file.
 */
export async function openFile(page, workspaceRoot, file) {
  const relative = path.relative(workspaceRoot, file);
  const name = path.basename(file);
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const exact = new RegExp(`^\\s*${escaped}\\s*$`);
  await palette(page, relative, () =>
    page.locator(`${QUICK_INPUT} .monaco-list-row`, { has: page.locator('.label-name', { hasText: exact }) }),
  );
  await page
    .locator('.tabs-container .tab', { hasText: name })
    .first()
    .waitFor({ timeout: ceiling(15_000) });
  return relative;
}

/** Opens a file of a check's copy with the board ("Reopen Editor With…") and returns the board's frame. */
export async function openBoard(page, workspaceRoot, file) {
  const relative = await openFile(page, workspaceRoot, file);
  await palette(page, '>Reopen Editor With', /Reopen Editor With(\.\.\.|…)/);
  await page
    .locator(`${QUICK_INPUT} .monaco-list-row`, { hasText: 'MTRL Rollout Replay' })
    .first()
    .click({ timeout: ceiling(15_000) });
  return boardFrame(page, ceiling(90_000), relative);
}

/**
 * Steps the board's player on to `turn` with →, one press a turn. The workbench gives a webview's frame the keys only once
 * it has the focus: a press that never reached the board leaves the turn as it was, and is pressed again after a click on
 * the player (as a user would), twice at most. A press that reached it and did nothing still fails.
 */
export async function stepTo(frame, turn) {
  const count = frame.locator('.player .turn-count').first();
  const at = async () => {
    const shown = ((await count.textContent()) ?? '').trim();
    const now = Number(/^turn (\d+) \//.exec(shown)?.[1]);
    if (Number.isNaN(now)) throw new Error(`the player's turn count says "${shown}"`);
    return now;
  };
  for (let now = await at(); now < turn; now = await at()) {
    const next = count.filter({ hasText: new RegExp(`^\\s*turn ${now + 1} /`) });
    for (let press = 1; ; press++) {
      await frame.locator('.player').press('ArrowRight');
      if (
        await next.waitFor({ timeout: ceiling(5_000) }).then(
          () => true,
          () => false,
        )
      )
        break;
      if (press === 3) throw new Error(`the board stayed at turn ${now} after three presses of →`);
      await count.click();
    }
  }
}

export const checks = [
  {
    name: 'replay board opens a log file with "Reopen Editor With…", shows groups and plays a turn in the workbench theme',
    async run({ page, workspace, workspaceRoot, screenshot }) {
      const source = await openFile(page, workspaceRoot, path.join(workspace, 'replay', 'rollouts.log'));
      await palette(page, '>Reopen Editor With', /Reopen Editor With(\.\.\.|…)/);
      const choice = page.locator(`${QUICK_INPUT} .monaco-list-row`, { hasText: 'MTRL Rollout Replay' }).first();
      await choice.waitFor({ timeout: ceiling(15_000) }).catch(async () => {
        const rows = await page.locator(`${QUICK_INPUT} .monaco-list-row`).allTextContents();
        throw new Error(`"MTRL Rollout Replay" is not offered; the picker lists: ${rows.join(' | ') || '(nothing)'}`);
      });
      await choice.click();
      const frame = await boardFrame(page, ceiling(90_000), source);
      const first = await frame.locator('.group-row[data-group] .group-label').first().textContent();
      assert.match(first ?? '', /^[A-Z]{5}$/);
      // Keys reach a webview only once the workbench has given its frame the focus: a click inside the player gives it,
      // as a user's would (Quick Open had left the focus on the Explorer).
      await frame.locator('.player .turn-count').click();
      await frame.locator('.player').focus();
      await stepTo(frame, 1);
      await frame
        .locator('.player .tile-row:first-child .tile[data-mark]:not([data-mark=""])')
        .first()
        .waitFor({ timeout: ceiling(10_000) });
      const mark = await frame.locator('.player .tile-row:first-child .tile').first().getAttribute('aria-label');
      assert.match(mark ?? '', /^[A-Z] (green|yellow|gray)$/);
      // Theme colours reach the page: the body follows the workbench's editor background, not the fallback.
      const background = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.notEqual(background, 'rgba(0, 0, 0, 0)');
      await screenshot('replay-vscode');
    },
  },
  {
    name: "replay board shows a support agent's rollouts: tasks, tool-call cards, the first different turn and the action table",
    async run({ page, workspace, workspaceRoot, screenshot }) {
      await palette(page, '>View: Close All Editors', 'View: Close All Editors');
      const frame = await openBoard(page, workspaceRoot, path.join(workspace, 'replay', 'support-rollouts.log'));
      await frame.locator('.group-row[data-group][title^="Resolve ticket 0:"]').first().click();
      await frame
        .locator('.player .tool-call')
        .first()
        .waitFor({ timeout: ceiling(15_000) });
      assert.equal(await frame.locator('.player .tool-call .tool-name').first().textContent(), 'take_support_action');
      assert.match((await frame.locator('.player .tool-call .tool-part pre').first().textContent()) ?? '', /"action": "check_outage"/);
      assert.equal(await frame.locator('.player details.thinking[open]').count(), 0, 'thinking starts folded');
      // The third rollout of ticket 0 restarts the router at turn 4 where the first applies the fix.
      await frame.locator('.rollout-row[data-rollout]').nth(2).locator('.compare-button').click();
      await frame.locator('.players.comparing .player:nth-child(2) .turn.differs').waitFor({ timeout: ceiling(10_000) });
      assert.equal(await frame.locator('.players .player:first-child .turn.differs').getAttribute('data-turn'), '4');
      const names = await frame.locator('.action-table tbody .action-name').allTextContents();
      assert.ok(
        names.slice(0, 2).includes('take_support_action action=restart_router'),
        `the action table leads with the router: ${names.join(' | ')}`,
      );
      await screenshot('replay-support-vscode');
    },
  },
  {
    name: "replay board marks a tool call whose result the runtime never saw (a local check's last call), in a saved transcripts file",
    async run({ page, workspace, workspaceRoot }) {
      // What `mtrl signal --local --transcripts-out` keeps: the agent ended after its last tool call, so no later model call carried the result.
      const rollout = (id, reward) => ({
        id,
        task: { prompt: 'Resolve the refund ticket ORD-10001' },
        groupKey: 'refund-ticket',
        status: 'completed',
        reward,
        source: 'record',
        turns: [
          { toolCalls: [{ name: 'lookup_order', arguments: { order_id: 'ORD-10001' }, result: { found: true } }] },
          { toolCalls: [{ name: 'close_ticket', arguments: { resolution: 'refunded' }, resultNotSeen: true }] },
        ],
      });
      writeFileSync(
        path.join(workspace, 'unseen-results.jsonl'),
        `${[rollout('r1', 0.5), rollout('r2', 0.75)].map((r) => JSON.stringify(r)).join('\n')}\n`,
      );
      const frame = await openBoard(page, workspaceRoot, path.join(workspace, 'unseen-results.jsonl'));
      await frame.locator('.group-row[data-group]').first().click();
      const unseen = frame.locator('.player .tool-call', { has: frame.locator('.tool-result-not-seen') });
      await unseen.first().waitFor({ timeout: ceiling(15_000) });
      assert.equal(await unseen.locator('.tool-name').first().textContent(), 'close_ticket');
      assert.match((await unseen.first().getAttribute('aria-label')) ?? '', /result not seen$/);
      assert.equal(await frame.locator('.player .tool-result-not-seen').count(), 1, 'the call with its result is not marked');
    },
  },
];
