import * as vscode from 'vscode';
import type { Services } from '../services';
import { DatasetQuickFixes } from './quickFixes';
import { DatasetStatusBar } from './statusBar';
import type { UploadRequest } from './upload';
import { validateDatasetCommand } from './validateCommand';
import { DatasetValidation } from './validation';

/** Datasets: diagnostics as users type and save, quick fixes, a status bar summary, the Validate and Upload commands. */
export function register(services: Services): void {
  const validation = new DatasetValidation(services);
  const { subscriptions } = services.context;
  // Closed files change too (git checkout, a script, an upload tool): their diagnostics follow the disk.
  const files = vscode.workspace.createFileSystemWatcher('**/*.{jsonl,ndjson,json,csv,parquet}');
  subscriptions.push(
    validation,
    files,
    files.onDidChange((uri) => validation.fileChanged(uri)),
    files.onDidCreate((uri) => validation.fileChanged(uri)),
    files.onDidDelete((uri) => validation.fileDeleted(uri)),
    new DatasetStatusBar(validation),
    vscode.languages.registerCodeActionsProvider([{ scheme: 'file' }, { scheme: 'untitled' }], new DatasetQuickFixes(), {
      providedCodeActionKinds: DatasetQuickFixes.kinds,
    }),
    vscode.workspace.onDidOpenTextDocument((d) => validation.schedule(d, 0)),
    vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length && validation.schedule(e.document)),
    vscode.workspace.onDidSaveTextDocument((d) => validation.schedule(d, 0)),
    vscode.workspace.onDidCloseTextDocument((d) => validation.forget(d.uri)),
    services.settings.onDidChange(['datasets'], () => {
      validation.collection.clear();
      for (const d of vscode.workspace.textDocuments) validation.schedule(d, 0);
    }),
    vscode.commands.registerCommand('mtrl.validateDataset', (arg?: unknown) => validateDatasetCommand(services, validation, arg)),
    vscode.commands.registerCommand('mtrl.uploadDataset', (arg?: unknown, request?: UploadRequest) => {
      // The upload loads on first use: the build maps './upload' to dist/upload.js.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { uploadDatasetCommand } = require('./upload') as typeof import('./upload');
      return uploadDatasetCommand(services, validation, arg, request);
    }),
  );
  for (const d of vscode.workspace.textDocuments) validation.schedule(d, 0);
}
