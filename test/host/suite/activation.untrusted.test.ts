// In an untrusted workspace (Restricted Mode) the extension still activates and offers its commands, in limited mode.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { MtrlApi } from '../../../src/extension';

describe('untrusted workspace', () => {
  it('opens the workspace untrusted', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('declares limited support and activates', async () => {
    const extension = vscode.extensions.getExtension<MtrlApi>('mtrl.mtrl-workbench');
    assert.ok(extension, 'mtrl.mtrl-workbench is not installed');
    assert.equal(extension.packageJSON.capabilities?.untrustedWorkspaces?.supported, 'limited');
    const api = await extension.activate();
    assert.equal(typeof api.activationMs, 'number');
  });

  it('registers every contributed command in Restricted Mode too', async () => {
    const extension = vscode.extensions.getExtension('mtrl.mtrl-workbench');
    await extension?.activate();
    const declared: { command: string }[] = extension?.packageJSON.contributes?.commands ?? [];
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      declared.map((c) => c.command).filter((id) => !registered.has(id)),
      [],
    );
  });
});
