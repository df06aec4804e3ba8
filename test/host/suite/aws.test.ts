// The AWS connection (#2) in the real VS Code: profile/region commands write settings that take effect without reload.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ceiling } from '../lib/ceiling';

interface Listed {
  region: string;
  category: string;
  error?: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a command that shows a quick pick, moves the selection down `down` times and accepts. */
async function pickWith(command: string, down: number): Promise<void> {
  const done = vscode.commands.executeCommand(command);
  await pause(1000);
  for (let i = 0; i < down; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  await done;
}

describe('aws connection', function () {
  this.timeout(ceiling(60_000));
  const config = () => vscode.workspace.getConfiguration('mtrl.aws');

  before(async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
  });

  it('contributes MTRL: Choose AWS Profile and MTRL: Choose AWS Region', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('mtrl.chooseProfile'));
    assert.ok(commands.includes('mtrl.chooseRegion'));
  });

  it('Choose AWS Region writes mtrl.aws.region, and the jobs tree follows without a reload', async () => {
    const before = config().get<string>('region');
    assert.equal(before, 'us-east-1');
    const changed = new Promise<void>((resolve) => {
      const listener = vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mtrl.aws.region')) {
          listener.dispose();
          resolve();
        }
      });
    });
    try {
      // The list starts with the current region (us-east-1), then us-west-2.
      await pickWith('mtrl.chooseRegion', 1);
      await changed;
      assert.equal(config().get<string>('region'), 'us-west-2');
      const commands = await vscode.commands.getCommands(true);
      if (commands.includes('mtrl.refreshJobs')) {
        const listed = await vscode.commands.executeCommand<Listed[]>('mtrl.refreshJobs');
        assert.deepEqual([...new Set(listed.map((r) => r.region))], ['us-west-2']);
      }
    } finally {
      await config().update('region', before, vscode.ConfigurationTarget.Global);
    }
  });

  it('Choose AWS Profile offers the default chain and leaves the profile unset when chosen', async () => {
    await pickWith('mtrl.chooseProfile', 0);
    assert.equal(config().get<string>('profile'), '');
  });
});
