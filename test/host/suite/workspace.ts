// What every host suite needs from the run: the runner's API, files of the suite's own copy of the fixture folder, and
// the ceiling of a wait (scaled with the machine's load).
import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import { ceiling } from '../lib/ceiling';
import type { RunnerApi } from '../runner/runner';

export function runner(): RunnerApi {
  const extension = vscode.extensions.getExtension<RunnerApi>('mtrl-test.mtrl-host-runner');
  assert.ok(extension?.isActive, 'the host runner extension is not active');
  return extension.exports;
}

export { ceiling };

/** A file of this suite's own copy of the fixture folder: no other suite reads what a test writes there. */
export function workspaceFile(...parts: string[]): vscode.Uri {
  const folder = runner().suiteFolder;
  assert.ok(folder, 'no suite copy: workspaceFile() is for tests and hooks, not for a suite body');
  return vscode.Uri.file(path.join(folder, ...parts));
}

/** How VS Code names a file of this suite's copy (relative to the opened folder), e.g. `signal/refund-check` in `signal-1/…`. */
export function shownPath(...parts: string[]): string {
  return vscode.workspace.asRelativePath(workspaceFile(...parts), false);
}

/** Resolves with the diagnostics of `uri` from the sources `fromSource` accepts, once `accept` likes them. */
export function diagnosticsFrom(
  uri: vscode.Uri,
  fromSource: (source: string) => boolean,
  accept: (d: vscode.Diagnostic[]) => boolean,
  timeoutMs = ceiling(15_000),
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
