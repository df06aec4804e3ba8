import * as vscode from 'vscode';
import { reportFileName, type ReportModel } from '../../core/report/model';
import { reportPage } from '../../webview-kit/page';
import type { Services } from '../services';

/**
 * Export Report…'s one writer (the board, the metrics view, the signal report): the model written where the user picks
 * (the save dialog asks before replacing a file), or to `{ to }` when a caller names the file (a keybinding or a test);
 * never over a file there already without asking.
 */
export async function writeReport(services: Services, model: ReportModel, label: string, given?: unknown): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const named = (given as { to?: unknown } | undefined)?.to;
  const target =
    named instanceof vscode.Uri
      ? await confirmed(named)
      : await vscode.window.showSaveDialog({
          title: 'MTRL: Export Report',
          saveLabel: 'Export Report',
          filters: { 'HTML report': ['html'] },
          ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, reportFileName(label)) } : {}),
        });
  if (!target) return undefined;
  const script = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(services.context.extensionUri, 'dist', 'webview', 'report.js'));
  const html = Buffer.from(reportPage(model, Buffer.from(script).toString('utf8')), 'utf8');
  await vscode.workspace.fs.writeFile(target, html);
  const open = 'Open in Browser';
  void vscode.window
    .showInformationMessage(
      `MTRL: wrote ${vscode.workspace.asRelativePath(target)} (${Math.round(html.length / 1024)} KB): ${model.counts}.`,
      open,
    )
    .then((choice) => choice === open && vscode.env.openExternal(target));
  return target;
}

/** A file the caller named, once the user agreed to replace what is there (a new file needs no question). */
async function confirmed(target: vscode.Uri): Promise<vscode.Uri | undefined> {
  const there = await vscode.workspace.fs.stat(target).then(
    () => true,
    () => false,
  );
  if (!there) return target;
  const replace = 'Replace';
  const asked = `${vscode.workspace.asRelativePath(target)} exists. Replace it with the report?`;
  return (await vscode.window.showWarningMessage(asked, { modal: true }, replace)) === replace ? target : undefined;
}

/** The rollouts of a view's report, read under a cancellable progress; a read that fails becomes the report's sentence. */
export async function withRolloutsProgress<T>(
  title: string,
  read: (signal: AbortSignal) => Promise<T>,
  failed: (error: unknown) => T,
): Promise<T | undefined> {
  const controller = new AbortController();
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (_progress, token) => {
      token.onCancellationRequested(() => controller.abort());
      return read(controller.signal).catch(failed);
    },
  );
  return controller.signal.aborted ? undefined : result;
}
