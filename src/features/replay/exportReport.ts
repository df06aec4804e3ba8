import * as vscode from 'vscode';
import { buildReport, reportFileName, type ReportModel } from '../../core/report/model';
import { reportPage } from '../../webview-kit/page';
import type { Services } from '../services';
import type { ReplayPanel } from './panel';

/** The focused board as a report: the rollouts its filter shows, and the scan's findings over every rollout read. */
async function boardReport(board: ReplayPanel): Promise<ReportModel> {
  const rollouts = await board.shownRollouts();
  const filtered = board.rolloutsRead !== rollouts.length;
  return buildReport({
    rollouts,
    source: filtered
      ? `${board.source.label} (the board's filter: ${rollouts.length} of ${board.rolloutsRead} rollouts)`
      : board.source.label,
    madeAt: new Date(),
    ...(board.source.kind === 'job' ? { job: board.source.jobName } : {}),
    scan: board.findings(),
  });
}

/**
 * Export Report…: the board's report written where the user picks (the save dialog asks before replacing a file), or to
 * `{ to }` when a caller names the file (a keybinding or a test); never over a file there already without asking.
 */
export async function exportBoardReport(
  services: Services,
  board: ReplayPanel | undefined,
  given?: unknown,
): Promise<vscode.Uri | undefined> {
  if (!board) {
    void vscode.window.showInformationMessage('MTRL: open the replay board first: Export Report writes what it shows.');
    return undefined;
  }
  const model = await boardReport(board);
  if (!model.rollouts.length) {
    void vscode.window.showInformationMessage('MTRL: the board shows no rollouts yet: nothing to export.');
    return undefined;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = reportFileName(board.source.label);
  const named = (given as { to?: unknown } | undefined)?.to;
  const target =
    named instanceof vscode.Uri
      ? await confirmed(named)
      : await vscode.window.showSaveDialog({
          title: 'MTRL: Export Report',
          saveLabel: 'Export Report',
          filters: { 'HTML report': ['html'] },
          ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
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
