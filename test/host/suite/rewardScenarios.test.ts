// Reward scenarios in the real VS Code: the lens above any environment's reward, scored by python3, warnings, save.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ceiling, workspaceFile } from './workspace';

const SOURCE = 'MTRL reward scenarios';

async function scenarioLenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  await vscode.workspace.openTextDocument(uri);
  return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)).filter(
    (l) => l.command?.command === 'mtrl.showRewardScenarios',
  );
}

/** Polls until the lens title passes `accept`: the scenario index and the Python run finish in the background. */
async function lensTitle(
  uri: vscode.Uri,
  accept: (title: string) => boolean,
  timeoutMs = 30_000,
): Promise<{ title: string; line: number }> {
  const deadline = Date.now() + ceiling(timeoutMs);
  let last = '(no lens)';
  while (Date.now() < deadline) {
    const lens = (await scenarioLenses(uri))[0];
    last = lens?.command?.title ?? '(no lens)';
    if (lens && accept(last)) return { title: last, line: lens.range.start.line };
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`scenario lens never matched; last: ${last}`);
}

async function warnings(uri: vscode.Uri, accept: (d: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + ceiling(20_000);
  for (;;) {
    const found = vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
    if (accept(found) || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('reward scenarios for any environment', function () {
  this.timeout(ceiling(90_000));

  before(async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')?.activate();
  });

  it('a class-form environment: the lens above the class shows each scenario score and the expectations kept', async () => {
    const uri = workspaceFile('reward-scenarios', 'support_env.py');
    const lens = await lensTitle(uri, (t) => t.includes('\u2713') || t.includes('\u2717') || t.includes('failed'));
    assert.equal(lens.title, 'ideal 1.00 \u00b7 shortcut 0.25 \u00b7 gave-up 0.00 \u00b7 \u2713 5/5');
    assert.equal(lens.line, 5, 'above `class SupportGame`');
    const scenarioFile = workspaceFile('reward-scenarios', 'support.mtrl-reward.json');
    assert.equal((await lensTitle(scenarioFile, (t) => t.startsWith('ideal'))).line, 0, 'the scenario file shows it too');
  });

  it('a function-form reward over the transcript previews from its scenario file', async () => {
    const lens = await lensTitle(workspaceFile('reward-scenarios', 'math_reward.py'), (t) => t.startsWith('ideal'));
    assert.equal(lens.title, 'ideal 1.00 \u00b7 worked-wrong 0.10 \u00b7 silent 0.00 \u00b7 \u2713 5/5');
  });

  it('a shortcut that pays more than the ideal is a warning at the reward naming the pair; fixing it and saving clears it', async () => {
    const uri = workspaceFile('reward-scenarios', 'bad_support_env.py');
    const lens = await lensTitle(uri, (t) => t.includes('\u2717'));
    assert.equal(lens.title, 'ideal 1.00 \u00b7 shortcut 1.25 \u00b7 gave-up 0.00 \u00b7 \u2717 3/5');
    const found = await warnings(uri, (d) => d.length === 2);
    assert.deepEqual(
      found.map((d) => [d.code, d.severity, d.range.start.line]),
      [
        ['expectation', vscode.DiagnosticSeverity.Warning, 16],
        ['expectation', vscode.DiagnosticSeverity.Warning, 16],
      ],
    );
    assert.match(found[0].message, /ideal > shortcut broken .*ideal 1\.00 is not > shortcut 1\.25/);

    const document = await vscode.workspace.openTextDocument(uri);
    const line = document
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('return 1.25'));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, document.lineAt(line).range, '            return 0.1');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await document.save();
    try {
      assert.match((await lensTitle(uri, (t) => t.includes('\u2713'))).title, /shortcut 0\.10 .*\u2713 5\/5$/);
      assert.deepEqual(await warnings(uri, (d) => d.length === 0), []);
    } finally {
      const restore = new vscode.WorkspaceEdit();
      restore.replace(uri, document.lineAt(line).range, '            return 1.25');
      await vscode.workspace.applyEdit(restore);
      await document.save();
    }
  });
});
