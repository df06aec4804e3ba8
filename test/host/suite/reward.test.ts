// A Wordle reward in the real VS Code: scored by a real python3 run on the scenarios its pack offers, warnings, save as a
// scenario file, settings and save.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { ceiling, workspaceFile } from './workspace';

const SOURCE = 'MTRL reward scenarios';

async function lensesOf(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  await vscode.workspace.openTextDocument(uri);
  return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)).filter(
    (l) => l.command?.command === 'mtrl.showRewardScenarios' || l.command?.command === 'workbench.trust.manage',
  );
}

/** Polls the CodeLens until its title passes `accept` (saves and setting changes recompute in the background). */
async function lensTitle(uri: vscode.Uri, accept: (title: string) => boolean, timeoutMs = 30_000): Promise<string> {
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
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
}

async function until<T>(read: () => T, accept: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + ceiling(timeoutMs);
  for (;;) {
    const value = read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const lineOf = (uri: vscode.Uri, pattern: RegExp) =>
  readFileSync(uri.fsPath, 'utf8')
    .split('\n')
    .findIndex((l) => pattern.test(l));
const config = () => vscode.workspace.getConfiguration('mtrl.reward');
const done = (t: string) => /[\u2713\u2717] \d+\/\d+$/.test(t) || t.includes('failed');

describe('reward preview of a Wordle reward (the scenarios its pack offers)', function () {
  this.timeout(ceiling(90_000));

  before(async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')?.activate();
  });

  afterEach(async () => {
    for (const key of ['codeLens', 'timeoutSeconds']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('shows the scores of the canonical games above the WordleGame class, computed by python3', async () => {
    const uri = workspaceFile('reward', 'wordle_reward.py');
    const title = await lensTitle(uri, done);
    assert.match(title, /^solve@1 1\.56 · solve@2 1\.47 · .* · loss −0\.37 · loss-contradicting −0\.65 · no-play −1\.50 · ✓ 19\/19$/);
    const lenses = await lensesOf(uri);
    assert.equal(lenses.length, 1);
    assert.equal(lenses[0].range.start.line, lineOf(uri, /^class WordleGame\b/));
    assert.ok(existsSync(workspaceFile('reward', 'python-ran.marker').fsPath), 'the scorer did not import the file');
    assert.deepEqual(rewardDiagnostics(uri), []);
  });

  it('the first (summed) design breaks the expectations that name its distortions, warnings at final_reward', async () => {
    const uri = workspaceFile('reward', 'first_design.py');
    assert.match(await lensTitle(uri, done), /^solve@1 0\.99 · solve@2 1\.30 · .* · loss 0\.49 · .* · no-play −0\.40 · ✗ 8\/18$/);
    const warnings = await until(
      () => rewardDiagnostics(uri),
      (d) => d.length === 10,
    );
    assert.equal(warnings.length, 10);
    const line = lineOf(uri, /^\s+def final_reward\b/);
    assert.ok(
      warnings.every((d) => d.code === 'expectation' && d.severity === vscode.DiagnosticSeverity.Warning && d.range.start.line === line),
    );
    assert.ok(warnings.some((d) => /loss < 0 broken \(scenarios of the environment\): loss 0\.49 is not < 0/.test(d.message)));
  });

  it('a syntax error becomes an error diagnostic at the user line and column', async () => {
    const uri = workspaceFile('reward', 'broken_reward.py');
    // The lens is found in the text even though Python cannot compile it.
    assert.match(await lensTitle(uri, done), /Reward scenarios failed: SyntaxError/);
    const [error] = await until(
      () => rewardDiagnostics(uri),
      (d) => d.length === 1,
    );
    assert.equal(error.severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual([error.code, error.range.start.line, error.range.start.character], ['syntax', 4, 25]);
  });

  it("saves the pack's scenarios as a scenario file beside the reward, which then scores it", async () => {
    const uri = workspaceFile('reward', 'wordle_reward.py');
    const saved = await vscode.commands.executeCommand<vscode.Uri>('mtrl.saveRewardScenarios', uri);
    try {
      assert.equal(saved?.fsPath, workspaceFile('reward', 'wordle_reward.mtrl-reward.json').fsPath);
      const file = JSON.parse(readFileSync(saved.fsPath, 'utf8'));
      assert.deepEqual([file.reward.file, file.reward.class, file.task.answer], ['wordle_reward.py', 'WordleGame', 'crane']);
      // The saved file has a lens of its own and, from now on, is the one scoring the reward.
      assert.match(await lensTitle(saved, done), /^solve@1 1\.56 .*✓ 19\/19$/);
      assert.match(await lensTitle(uri, done), /^solve@1 1\.56 .*✓ 19\/19$/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(workspaceFile('reward', 'wordle_reward.mtrl-reward.json'));
    }
  });

  it('applies mtrl.reward.codeLens without reload', async () => {
    const uri = workspaceFile('reward', 'first_design.py');
    await lensTitle(uri, done);
    await config().update('codeLens', false, vscode.ConfigurationTarget.Workspace);
    assert.deepEqual(await lensesOf(uri), []);
  });

  it('stops an endless loop after mtrl.reward.timeoutSeconds and says so at the reward', async () => {
    await config().update('timeoutSeconds', 2, vscode.ConfigurationTarget.Workspace);
    const uri = workspaceFile('reward', 'endless_reward.py');
    const started = Date.now();
    assert.match(await lensTitle(uri, done), /Reward scenarios failed: The reward code did not finish within 2 s/);
    assert.ok(Date.now() - started < ceiling(20_000), 'the 2 s timeout was not applied');
    const [error] = await until(
      () => rewardDiagnostics(uri),
      (d) => d.length === 1,
    );
    assert.equal(error.code, 'timeout');
  });

  it('recomputes after a save', async () => {
    const uri = workspaceFile('reward', 'first_design.py');
    const document = await vscode.workspace.openTextDocument(uri);
    const line = lineOf(uri, /^LOSS_PENALTY/);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, document.lineAt(line).range, 'LOSS_PENALTY = 2.65');
    assert.ok(await vscode.workspace.applyEdit(edit));
    // What counts is the file: save() says false once the document is clean, and at load 60 a save participant that ran
    // past VS Code's 1.75 s left the edit unsaved; saved again while the document is dirty.
    const saved = () => !document.isDirty && readFileSync(uri.fsPath, 'utf8').includes('LOSS_PENALTY = 2.65');
    const deadline = Date.now() + ceiling(15_000);
    while (!saved() && Date.now() < deadline)
      if (document.isDirty) await document.save();
      else await new Promise((r) => setTimeout(r, 200));
    assert.ok(saved(), 'the edit was not saved');
    // Losses are negative now, but both fell below no-play (−0.40).
    const title = await lensTitle(uri, (t) => t.includes('loss \u22120.51'));
    assert.match(title, /loss-contradicting −0\.89 · no-play −0\.40 · ✗ 8\/18$/);
    const messages = (
      await until(
        () => rewardDiagnostics(uri),
        (d) => d.some((x) => x.message.includes('no-play < loss')),
      )
    ).map((d) => d.message);
    assert.ok(messages.some((m) => /no-play < loss-contradicting broken .*no-play −0\.40 is not < loss-contradicting −0\.89/.test(m)));
    assert.ok(!messages.some((m) => m.includes('loss < 0')));
  });
});
