// The packaged extension, installed from its .vsix, activates in the real extension host and contributes what it declares.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { MtrlApi } from '../../../src/extension';
import { ceiling, runner } from './workspace';

const PRODUCT = 'mtrl.mtrl-workbench';

function product(): vscode.Extension<MtrlApi> {
  const extension = vscode.extensions.getExtension<MtrlApi>(PRODUCT);
  assert.ok(extension, `${PRODUCT} is not installed in this VS Code`);
  return extension;
}

describe('activation', () => {
  let api: MtrlApi;

  before(async () => {
    const extension = product();
    const wasActive = extension.isActive;
    const at = performance.now();
    api = await extension.activate();
    // Wall time of the first activate() call: loading dist/extension.js plus activate() itself.
    if (!wasActive) runner().record('activateCallMs', performance.now() - at);
    runner().record('activationMs', api.activationMs);
    runner().record('runnerActivationMs', runner().activationMs);
  });

  it('runs from the installed .vsix, not from the source tree', () => {
    const extension = product();
    assert.ok(extension.isActive);
    assert.match(path.basename(extension.extensionPath), /^mtrl\.mtrl-workbench-\d+\.\d+\.\d+$/);
    assert.ok(existsSync(path.join(extension.extensionPath, 'dist/extension.js')));
    assert.ok(!existsSync(path.join(extension.extensionPath, 'src')), 'the .vsix ships src/: check .vscodeignore');
  });

  it('registers every command its package.json contributes', async () => {
    const declared: { command: string }[] = product().packageJSON.contributes?.commands ?? [];
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `declared but not registered after activation: ${missing.join(', ')}`);
  });

  it('creates the "MTRL" output channel and logs its activation there', async function () {
    this.timeout(ceiling(20_000));
    const dir = path.join(runner().extensionHostLogDir, PRODUCT);
    // VS Code writes a channel's log file after a flush, so a busy machine can show the directory before the line.
    const deadline = Date.now() + ceiling(15_000);
    let text = '';
    while (!/MTRL Workbench activated in \d+(\.\d+)? ms/.test(text)) {
      const channel = existsSync(dir) ? readdirSync(dir).find((f) => /MTRL\.log$/.test(f)) : undefined;
      text = channel ? readFileSync(path.join(dir, channel), 'utf8') : '';
      if (Date.now() > deadline) assert.fail(channel ? `no activation line in ${channel}: ${text}` : `no MTRL log channel file in ${dir}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('reports its activation time', () => {
    assert.equal(typeof api.activationMs, 'number');
    assert.ok(Number.isFinite(api.activationMs) && api.activationMs >= 0, `activationMs is ${api.activationMs}`);
  });
});
