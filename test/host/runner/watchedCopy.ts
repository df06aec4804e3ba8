// A suite's or UI check group's copy of the fixture folder, made only as fast as VS Code's file watcher follows it.
import { mkdirSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { ceiling } from '../lib/ceiling';
import { freshCopy } from '../lib/copies';

/**
 * `freshCopy` that waits, folder depth by folder depth, until the workspace's file watcher (the one a product's
 * `createFileSystemWatcher` glob listens to) reports each new folder. A folder not reported in a while is made again: its
 * parent may not have been watched yet when it was made (the first copy of a session), and a new event comes then.
 */
export async function watchedCopy(fixture: string, workspace: string, name: string): Promise<string> {
  const reported = new Set<string>();
  const watcher = vscode.workspace.createFileSystemWatcher('**', false, false, true);
  // A folder deleted and made again within the watcher's delay arrives as one change, not a creation.
  const events = [watcher.onDidCreate((uri) => reported.add(uri.fsPath)), watcher.onDidChange((uri) => reported.add(uri.fsPath))];
  try {
    return await freshCopy(fixture, workspace, name, async (folders) => {
      const deadline = Date.now() + ceiling(30_000);
      let remakeAt = Date.now() + ceiling(2_000);
      for (;;) {
        const missing = folders.filter((folder) => !reported.has(folder));
        if (!missing.length) return;
        if (Date.now() > deadline) {
          throw new Error(`VS Code's file watcher never reported ${missing.join(', ')}: a change in it would reach no extension`);
        }
        if (Date.now() > remakeAt) {
          for (const folder of missing) {
            rmSync(folder, { recursive: true });
            mkdirSync(folder);
          }
          remakeAt = Date.now() + ceiling(2_000);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
  } finally {
    for (const event of events) event.dispose();
    watcher.dispose();
  }
}
