// The UI checks' line into the extension host: they drop a request file, the runner runs the command and answers in a
// file. A check starts from a known state this way (editors closed, the product's test-only reset) without a UI input
// the workbench could drop.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { HostCommandRequest, HostCommandResponse, HostRunConfig } from './protocol';
import { watchedCopy } from './watchedCopy';
import { ceiling } from '../lib/ceiling';

/** No editor, dirty or not (a "save?" dialog would block the page), no notification, no open quick input; the tabs left. */
export async function resetWorkbench(): Promise<string[]> {
  for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
    // An editor another part of the workbench opens at the same moment makes showTextDocument refuse: ask again, for
    // 15 s stretched by the load (the editors a suite left keep opening for seconds; 15 s alone ran out at load 37).
    const deadline = Date.now() + ceiling(15_000);
    for (let attempt = 1; document.isDirty; attempt++) {
      try {
        await vscode.window.showTextDocument(document);
      } catch (error) {
        if (!/another editor opened in the meantime/.test(String(error))) throw error;
        // At load 60 a settings write left the extension host's copy of settings.json dirty while the workbench had
        // saved it ("Unable to retrieve document"): no editor holds unsaved text, so no "save?" dialog can follow.
        if (Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 300 * Math.min(attempt, 5)));
        continue;
      }
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      break;
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('notifications.clearAll');
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
}

/** The AWS connection a check may change through the product's own commands (Choose AWS Region, Choose AWS Profile). */
const AWS_SETTINGS = ['aws.region', 'aws.profile', 'aws.endpoint', 'aws.regions'];

/** Puts the user's AWS settings back as the session began: a check that failed between two region choices left the other. */
export async function restoreAwsSettings(start: Record<string, unknown> = {}): Promise<void> {
  const config = vscode.workspace.getConfiguration('mtrl');
  for (const key of AWS_SETTINGS)
    if (JSON.stringify(config.inspect(key)?.globalValue) !== JSON.stringify(start[key]))
      await config.update(key, start[key], vscode.ConfigurationTarget.Global);
}

/** Built-in requests the runner answers itself, next to any VS Code command id. */
const builtIn = (config: HostRunConfig): Record<string, (...args: unknown[]) => Promise<unknown>> => ({
  'mtrl-test.resetWorkbench': resetWorkbench,
  /** Answered once the runner runs: its extension host activated the extensions of startup. */
  'mtrl-test.ready': async () => true,
  /** The product's test-only reset (sweeps forgotten, their tick held, the Jobs view unfiltered); false when the product is not active. */
  'mtrl-test.resetProduct': async (options: unknown) => {
    if ((options as { forgetChoices?: boolean } | undefined)?.forgetChoices) await restoreAwsSettings(config.awsSettings);
    const product = vscode.extensions.getExtension('mtrl.mtrl-workbench');
    if (!product) return false;
    await product.activate();
    return vscode.commands.executeCommand('mtrl.test.resetState', options);
  },
  /** A UI check group's fresh copy of the fixture folder, made as the suites' are (see `watchedCopy`); its path. */
  'mtrl-test.freshCopy': (name: unknown) => watchedCopy(config.fixture, config.workspace, String(name)),
});

async function answer(dir: string, file: string, config: HostRunConfig): Promise<void> {
  const id = file.replace(/\.request\.json$/, '');
  const request = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as HostCommandRequest;
  rmSync(path.join(dir, file));
  let response: HostCommandResponse;
  try {
    const run = builtIn(config)[request.command];
    const result = run ? await run(...request.args) : await vscode.commands.executeCommand(request.command, ...request.args);
    response = { result: result ?? null };
  } catch (error) {
    response = { error: error instanceof Error ? error.message : String(error) };
  }
  writeFileSync(path.join(dir, `${id}.tmp`), JSON.stringify(response));
  renameSync(path.join(dir, `${id}.tmp`), path.join(dir, `${id}.response.json`));
}

/** Answers requests in `dir` until disposed; requests run one at a time, in the order their files are found. */
export function serveHostCommands(dir: string, config: HostRunConfig): vscode.Disposable {
  mkdirSync(dir, { recursive: true });
  let busy = false;
  const timer = setInterval(() => {
    if (busy || !existsSync(dir)) return;
    const next = readdirSync(dir)
      .filter((f) => f.endsWith('.request.json'))
      .sort()[0];
    if (!next) return;
    busy = true;
    void answer(dir, next, config).finally(() => (busy = false));
  }, 50);
  return new vscode.Disposable(() => clearInterval(timer));
}
