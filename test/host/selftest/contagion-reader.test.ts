// Contagion self-test, the reader: what the reward-scenario suite asserts of the fixture's scenario files, read from disk
// and through the product's lens. Run only inside the harness self-test (host suite `host harness`).
import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import { ceiling, workspaceFile } from '../suite/workspace';
import { FIXTURE_LENS } from './contagion';

describe('contagion self-test: a reader of scenario files', function () {
  this.timeout(ceiling(90_000));

  it('sees only the fixture’s scenario files and their lens above the class-form environment', async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')?.activate();
    const fixtureFiles = [
      'bad-support.mtrl-reward.json',
      'constant.mtrl-reward.json',
      'math.mtrl-reward.json',
      'support.mtrl-reward.json',
      'wordle_constant.mtrl-reward.json',
    ];
    const onDisk = (await vscode.workspace.fs.readDirectory(workspaceFile('reward-scenarios'))).map(([name]) => name);
    assert.deepEqual(onDisk.filter((n) => n.endsWith('.mtrl-reward.json')).sort(), fixtureFiles);
    // The product's own search (the board's scenario picker uses it): no scenario file the fixture lacks, in any folder.
    const found = await vscode.workspace.findFiles('**/*.mtrl-reward.json', '**/node_modules/**', 200);
    assert.deepEqual(
      found.map((u) => u.fsPath).filter((f) => !fixtureFiles.includes(path.basename(f))),
      [],
      'a scenario file another test wrote is in the workspace',
    );
    const uri = workspaceFile('reward-scenarios', 'support_env.py');
    await vscode.workspace.openTextDocument(uri);
    const deadline = Date.now() + ceiling(30_000);
    let title = '(no lens)';
    while (Date.now() < deadline) {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10);
      title = lenses.find((l) => l.command?.command === 'mtrl.showRewardScenarios')?.command?.title ?? '(no lens)';
      if (/[\u2713\u2717]|failed/.test(title)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(title, FIXTURE_LENS);
  });
});
