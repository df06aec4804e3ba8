// The board's reward actions in the real VS Code: a rollout saved as a reward scenario, the rollouts shown re-scored.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { ceiling, workspaceFile } from './workspace';

interface ReplayState {
  view?: { status: string; rollout?: string; notices?: string[] };
  board?: { rollout?: number };
}

async function boardReady(): Promise<ReplayState> {
  const deadline = Date.now() + ceiling(30_000);
  let last: ReplayState | undefined;
  while (Date.now() < deadline) {
    last = await vscode.commands.executeCommand<ReplayState | undefined>('mtrl.getReplayView');
    if (last?.view?.status === 'ready' && last.view.rollout !== undefined && last.board?.rollout !== undefined) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`the board never showed a rollout; last report: ${JSON.stringify(last)}`);
}

describe('replay board: reward actions', function () {
  this.timeout(ceiling(90_000));

  before(async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')?.activate();
    await vscode.commands.executeCommand('mtrl.openRollouts', workspaceFile('replay', 'support-rollouts.log'));
    await boardReady();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('re-scores the rollouts shown with a scenario file’s reward and reports the learning signal before and after', async () => {
    const report = await vscode.commands.executeCommand<string>(
      'mtrl.rescoreShownRollouts',
      workspaceFile('reward-scenarios', 'support.mtrl-reward.json'),
    );
    assert.match(report ?? '', /^What-if over \d+ rollouts from the board/);
    assert.match(report ?? '', /zero-advantage groups\s+before [\d.]+ % \(\d+\/\d+\)\s+after [\d.]+ % \(\d+\/\d+\)/);
  });

  it('saves the rollout the board plays as a named scenario, as an undoable edit, and refuses a taken name', async () => {
    // The suite's own copy: no other suite reads this file, so the edit goes into the fixture's scenario file itself. (A copy
    // made just before, even through VS Code's file service, could be read half-written by a watcher on a busy machine,
    // and the save below was then refused as a conflict.)
    const target = workspaceFile('reward-scenarios', 'support.mtrl-reward.json');
    await vscode.commands.executeCommand('mtrl.openRollouts', workspaceFile('replay', 'support-rollouts.log'));
    await boardReady();
    await vscode.commands.executeCommand('mtrl.saveRolloutAsRewardScenario', target, 'from-board');
    const document = await vscode.workspace.openTextDocument(target);
    const saved = JSON.parse(document.getText()) as { scenarios: Record<string, { tool_calls?: { name: string }[] }> };
    assert.deepEqual(Object.keys(saved.scenarios), ['ideal', 'shortcut', 'gave-up', 'from-board']);
    assert.ok(saved.scenarios['from-board'].tool_calls?.every((c) => c.name === 'take_support_action'));
    assert.ok(document.isDirty, 'an edit the user can undo or save, not a silent write');
    // VS Code refused this save once in about twenty fresh-clone runs at load 10 and more, with no reason in any log:
    // asked again (a few times at most), it is the edit that must be savable, not VS Code's first attempt.
    let written = await document.save();
    for (let attempt = 1; !written && attempt < 3; attempt++) {
      await new Promise((r) => setTimeout(r, ceiling(1_000)));
      written = await document.save();
    }
    assert.ok(written, 'VS Code saved the scenario file');
    await vscode.commands.executeCommand('mtrl.saveRolloutAsRewardScenario', target, 'from-board');
    assert.equal(readFileSync(target.fsPath, 'utf8'), document.getText(), 'a taken name changes nothing');
  });
});

describe('replay board: matched to a dataset', function () {
  this.timeout(ceiling(90_000));

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('reopens a local file’s board with its rollouts matched to the dataset’s rows, and keeps the match for a reload', async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')?.activate();
    await vscode.commands.executeCommand('mtrl.openRollouts', workspaceFile('replay', 'support-rollouts.log'));
    const before = await boardReady();
    await vscode.commands.executeCommand('mtrl.matchRolloutsToDataset', workspaceFile('replay', 'support-prompts.csv'));
    const deadline = Date.now() + ceiling(30_000);
    let after: (ReplayState & { source?: { data?: string } }) | undefined;
    while (Date.now() < deadline) {
      after = await vscode.commands.executeCommand<ReplayState & { source?: { data?: string } }>('mtrl.getReplayView');
      if (after?.source?.data && after.view?.status === 'ready') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.match(after?.source?.data ?? '', /support-prompts\.csv$/);
    assert.equal(after?.view?.status, 'ready');
    assert.equal(
      (after?.view as { rollouts?: number } | undefined)?.rollouts,
      (before.view as { rollouts?: number } | undefined)?.rollouts,
    );
  });

  it('says so on the board when no rollout matches a row of the dataset given', async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')?.activate();
    const other = workspaceFile('replay', 'other-prompts.csv');
    await vscode.workspace.fs.writeFile(other, Buffer.from('prompt\nTranslate this menu into French.\nSum the invoice lines.\n'));
    await vscode.commands.executeCommand('mtrl.openRollouts', workspaceFile('replay', 'support-rollouts.log'));
    await boardReady();
    await vscode.commands.executeCommand('mtrl.matchRolloutsToDataset', other);
    const deadline = Date.now() + ceiling(30_000);
    let notices: string[] = [];
    while (Date.now() < deadline) {
      const state = await vscode.commands.executeCommand<ReplayState>('mtrl.getReplayView');
      notices = state?.view?.notices ?? [];
      if (notices.some((n) => /matched a row/.test(n))) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(
      notices.some((n) => /^0 of \d+ rollouts matched a row of .*other-prompts\.csv/.test(n)),
      `the board's notices: ${JSON.stringify(notices)}`,
    );
  });
});
