// In Restricted Mode the reward preview never runs workspace code: the CodeLens asks for trust instead.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { workspaceFile } from './workspace';
import { ceiling } from '../lib/ceiling';

describe('reward preview of a Wordle reward, untrusted workspace', function () {
  this.timeout(ceiling(30_000));

  it('says trust is needed, and no Python process ran', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')?.activate();
    const uri = workspaceFile('reward', 'wordle_reward.py');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)).filter((l) =>
      l.command?.title.includes('preview rewards'),
    );
    assert.equal(lenses.length, 1);
    assert.equal(lenses[0].command?.title, 'Trust this workspace to preview rewards');
    assert.equal(lenses[0].command?.command, 'workbench.trust.manage');
    await vscode.commands.executeCommand('mtrl.showRewardScenarios');
    // Importing the file would write this marker (the trusted suite asserts it appears there).
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(existsSync(workspaceFile('reward', 'python-ran.marker').fsPath), false);
    assert.deepEqual(
      vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'MTRL reward scenarios'),
      [],
    );
  });
});

describe('reward scenarios, untrusted workspace', function () {
  this.timeout(ceiling(30_000));

  it('the scenario lens asks for trust and no scenario is scored', async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')?.activate();
    const uri = workspaceFile('reward-scenarios', 'support.mtrl-reward.json');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)).filter(
      (l) => l.command?.command === 'workbench.trust.manage',
    );
    assert.equal(lenses.length, 1);
    assert.equal(lenses[0].command?.title, 'Trust this workspace to preview rewards');
    assert.deepEqual(
      vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'MTRL reward scenarios'),
      [],
    );
  });
});
