// What every host suite needs from the run: the runner's API and files of the per-run workspace copy.
import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RunnerApi } from '../runner/runner';

export function runner(): RunnerApi {
  const extension = vscode.extensions.getExtension<RunnerApi>('mtrl-test.mtrl-host-runner');
  assert.ok(extension?.isActive, 'the host runner extension is not active');
  return extension.exports;
}

/** A file of the workspace copy this run opened. */
export function workspaceFile(...parts: string[]): vscode.Uri {
  const root = runner().config?.workspace ?? vscode.workspace.workspaceFolders![0].uri.fsPath;
  return vscode.Uri.file(path.join(root, ...parts));
}

/** Resolves with the diagnostics of `uri` from the sources `fromSource` accepts, once `accept` likes them. */
export function diagnosticsFrom(
  uri: vscode.Uri,
  fromSource: (source: string) => boolean,
  accept: (d: vscode.Diagnostic[]) => boolean,
  timeoutMs = 15_000,
): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = vscode.languages.getDiagnostics(uri).filter((d) => fromSource(String(d.source)));
      if (accept(found)) {
        subscription.dispose();
        clearTimeout(timer);
        resolve(found);
      }
    };
    const subscription = vscode.languages.onDidChangeDiagnostics(check);
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(
        new Error(
          `diagnostics of ${uri.fsPath}: ${JSON.stringify(vscode.languages.getDiagnostics(uri).map((d) => [d.source, d.code, d.message]))}`,
        ),
      );
    }, timeoutMs);
    check();
  });
}
