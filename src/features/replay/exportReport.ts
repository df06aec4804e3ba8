import * as vscode from 'vscode';
import { buildReport, type ReportModel } from '../../core/report/model';
import { writeReport } from '../report/writeReport';
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

/** Export Report… on the board: what it shows, written by the one report writer. */
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
  return writeReport(services, model, board.source.label, given);
}
