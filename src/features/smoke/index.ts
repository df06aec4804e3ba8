import * as vscode from 'vscode';
import type { Services } from '../services';
import { smokeTestRuntime } from './command';
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
      const result = await smokeTestRuntime(services, reports, results, target);
      tree.refresh();
      return result;
    }),
    vscode.commands.registerCommand('mtrl.refreshRuntimes', () => tree.refresh()),
    services.onDidChangeAws(() => tree.refresh()),
  );
}
