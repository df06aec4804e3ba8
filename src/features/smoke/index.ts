import * as vscode from 'vscode';
import type { Services } from '../services';
import { SMOKE_REPORT_SCHEME, SmokeReportDocuments } from './reportDocument';
import { RuntimesTreeProvider } from './runtimesTree';

/** The smoke test of agent runtimes: command, report documents, and the "Agent Runtimes" view. */
export function register(services: Services): void {
  const reports = new SmokeReportDocuments();
  const results = services.stores.smokeResults;
  const tree = new RuntimesTreeProvider(services, results);
  services.context.subscriptions.push(
    reports,
    tree,
    vscode.workspace.registerTextDocumentContentProvider(SMOKE_REPORT_SCHEME, reports),
    vscode.window.registerTreeDataProvider('mtrl.runtimes', tree),
    vscode.commands.registerCommand('mtrl.smokeTestRuntime', async (target?: { runtimeArn?: string } | string) => {
      // The command's body (and the smoke test itself) loads on first use: the build maps './command' to dist/smoke.js.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { smokeTestRuntime } = require('./command') as typeof import('./command');
      const result = await smokeTestRuntime(services, reports, results, target);
      tree.refresh();
      return result;
    }),
    vscode.commands.registerCommand('mtrl.smokeTestAgentFile', async (target?: vscode.Uri) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { smokeTestAgentFile } = require('./command') as typeof import('./command');
      return smokeTestAgentFile(services, reports, target);
    }),
    vscode.commands.registerCommand('mtrl.refreshRuntimes', () => tree.refresh()),
    services.onDidChangeAws(() => tree.refresh()),
  );
}
