// In Restricted Mode the agent lint must not start the workspace's Python: the regex fallback runs, and says so.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ceiling, workspaceFile } from './workspace';

describe('agent lint in an untrusted workspace', function () {
  this.timeout(ceiling(30_000));

  it('uses the regex lint, and still offers the decorator quick fix', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
    const uri = workspaceFile('lint', 'main.py');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const deadline = Date.now() + ceiling(15_000);
    let found: vscode.Diagnostic[] = [];
    while (Date.now() < deadline) {
      found = vscode.languages.getDiagnostics(uri).filter((d) => String(d.source).startsWith('MTRL ('));
      if (found.length) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.deepEqual(
      found.map((d) => [d.source, d.code]),
      [['MTRL (regex)', 'decorator-order']],
    );
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, found[0].range);
    assert.ok(actions.some((a) => /entrypoint outermost/.test(a.title) && a.edit));
  });
});
