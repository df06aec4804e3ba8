// The reward CodeLens in the real VS Code: scores from a real python3 run, warnings, the preview panel, settings and save.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { ceiling, shownPath, workspaceFile } from './workspace';

async function lensesOf(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  await vscode.workspace.openTextDocument(uri);
  return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)).filter(
    (l) => l.command?.command === 'mtrl.showRewardPreview' || l.command?.command === 'workbench.trust.manage',
  );
}

/** Polls the CodeLens until its title passes `accept` (saves and setting changes recompute in the background). */
async function lensTitle(uri: vscode.Uri, accept: (title: string) => boolean, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + ceiling(timeoutMs);
  let last = '';
  while (Date.now() < deadline) {
    last = (await lensesOf(uri))[0]?.command?.title ?? '(no lens)';
    if (accept(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`CodeLens title never matched; last: ${last}`);
}

function rewardDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'MTRL reward');
}

async function until<T>(read: () => T, accept: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + ceiling(timeoutMs);
  for (;;) {
    const value = read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const config = () => vscode.workspace.getConfiguration('mtrl.reward');

describe('reward preview', function () {
  this.timeout(60_000);

  before(async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')?.activate();
  });

  afterEach(async () => {
    for (const key of ['answer', 'codeLens', 'timeoutSeconds']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('shows the canonical-game scores above final_reward, computed by python3', async () => {
    const uri = workspaceFile('reward', 'wordle_reward.py');
    const lenses = await lensesOf(uri);
    assert.equal(lenses.length, 1);
    assert.equal(lenses[0].range.start.line, 85);
    assert.equal(lenses[0].command?.title, 'solve@1 1.56 · solve@3 1.37 · solve@6 1.09 · loss −0.37 · no-play −1.50 · ✓ 4/4');
    assert.ok(existsSync(workspaceFile('reward', 'python-ran.marker').fsPath), 'the harness did not import the file');
    assert.deepEqual(rewardDiagnostics(uri), []);
  });

  it('the first (summed) design fails two invariants, shown as warnings at the reward', async () => {
    const uri = workspaceFile('reward', 'first_design.py');
    assert.match(
      (await lensesOf(uri))[0].command!.title,
      /^solve@1 0\.99 · solve@3 1\.61 · solve@6 2\.65 · loss 0\.49 · no-play −0\.40 · ✗ 2\/4$/,
    );
    const warnings = await until(
      () => rewardDiagnostics(uri),
      (d) => d.length === 2,
    );
    assert.deepEqual(
      warnings.map((d) => [d.code, d.severity, d.range.start.line]),
      [
        ['faster-solve-wins', vscode.DiagnosticSeverity.Warning, 47],
        ['loss-negative', vscode.DiagnosticSeverity.Warning, 47],
      ],
    );
    assert.match(warnings[1].message, /loss scores \+0\.49: a lost game is rewarded/);
  });

  it('a syntax error becomes an error diagnostic at the user line', async () => {
    const uri = workspaceFile('reward', 'broken_reward.py');
    await vscode.workspace.openTextDocument(uri);
    // The lens is found in the text even though Python cannot compile it.
    assert.match((await lensesOf(uri))[0]?.command?.title ?? '', /Reward preview failed \(line 5\)/);
    const [error] = await until(
      () => rewardDiagnostics(uri),
      (d) => d.length === 1,
    );
    assert.equal(error.severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual([error.range.start.line, error.range.start.character], [4, 25]);
  });

  it('opens the preview panel from the CodeLens command', async () => {
    const uri = workspaceFile('reward', 'wordle_reward.py');
    await vscode.commands.executeCommand('mtrl.showRewardPreview', uri);
    const tab = await until(
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('mtrl.rewardPreview')),
      (t) => t !== undefined,
    );
    assert.ok(tab, 'no reward preview tab');
    assert.equal(tab.label, `Reward preview: ${shownPath('reward', 'wordle_reward.py')}`);
    // Leave the workbench as found: later UI checks share this window.
    await vscode.window.tabGroups.close(tab);
  });

  it('applies mtrl.reward.answer and mtrl.reward.codeLens without reload', async () => {
    // The summed design's scores depend on the answer's letters, so a new answer shows in the title.
    const uri = workspaceFile('reward', 'first_design.py');
    await config().update('answer', 'riser', vscode.ConfigurationTarget.Workspace);
    await lensTitle(uri, (t) => t === 'solve@1 0.97 · solve@3 1.57 · solve@6 2.65 · loss 0.48 · no-play −0.40 · ✗ 2/4');
    await config().update('codeLens', false, vscode.ConfigurationTarget.Workspace);
    assert.deepEqual(await lensesOf(uri), []);
  });

  it('stops an endless loop after mtrl.reward.timeoutSeconds and says so at the reward', async () => {
    await config().update('timeoutSeconds', 2, vscode.ConfigurationTarget.Workspace);
    const uri = workspaceFile('reward', 'endless_reward.py');
    const started = Date.now();
    assert.match((await lensesOf(uri))[0]?.command?.title ?? '', /Reward preview failed: The reward code did not finish within 2 s/);
    assert.ok(Date.now() - started < ceiling(15_000), 'the 2 s timeout was not applied');
    const [warning] = await until(
      () => rewardDiagnostics(uri),
      (d) => d.length === 1,
    );
    assert.deepEqual([warning.code, warning.severity, warning.range.start.line], ['timeout', vscode.DiagnosticSeverity.Warning, 7]);
  });

  it('recomputes after a save', async () => {
    const uri = workspaceFile('reward', 'first_design.py');
    const document = await vscode.workspace.openTextDocument(uri);
    const line = document
      .getText()
      .split('\n')
      .findIndex((l) => l.startsWith('LOSS_PENALTY'));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, document.lineAt(line).range, 'LOSS_PENALTY = 2.65');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await document.save());
    const title = await lensTitle(uri, (t) => t.includes('loss \u22120.51'));
    // Loss is negative now, but loss-contradicting (−0.90) fell below no-play (−0.40).
    assert.match(title, /✗ 2\/4$/);
    const codes = (
      await until(
        () => rewardDiagnostics(uri),
        (d) => d.some((x) => x.code === 'no-play-worst'),
      )
    ).map((d) => d.code);
    assert.deepEqual(codes, ['faster-solve-wins', 'no-play-worst']);
  });
});
