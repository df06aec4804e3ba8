import * as vscode from 'vscode';
import { signalCheckReport, type ViewRollouts } from '../../core/report/views';
import { readReportRollouts, type ReportRolloutsFrom } from '../../services/rollouts/forReport';
import { withRolloutsProgress, writeReport } from '../report/writeReport';
import type { Services } from '../services';
import type { SignalPanel } from './panel';
import type { LoadedSignal } from './sources';

/** Where the check's rollouts are read again: its file or folder, or its evaluation job. */
function rolloutsOf(loaded: LoadedSignal): { from: ReportRolloutsFrom; label: string; region?: string } | undefined {
  const at = loaded.rollouts;
  if (!at) return undefined;
  if (at instanceof vscode.Uri) return { from: { file: at.fsPath }, label: vscode.workspace.asRelativePath(at) };
  return { from: { job: at }, label: `evaluation job ${at.jobName}`, region: at.region };
}

/** Export Report… on the learning-signal report: the check in its words, and the rollouts it checked on the board. */
export async function exportSignalReport(
  services: Services,
  panel: SignalPanel | undefined,
  given?: unknown,
): Promise<vscode.Uri | undefined> {
  const loaded = panel?.check;
  if (!panel || !loaded) {
    void vscode.window.showInformationMessage(
      panel
        ? 'MTRL: the learning-signal report is still reading: export it once it shows the check.'
        : 'MTRL: open a learning-signal report first.',
    );
    return undefined;
  }
  const place = rolloutsOf(loaded);
  let rollouts: ViewRollouts | undefined;
  if (place) {
    rollouts = await withRolloutsProgress<ViewRollouts>(
      `MTRL: reading the rollouts of ${place.label} for the report`,
      async (signal) => ({ ...(await readReportRollouts(services.aws, place.from, signal)), source: place.label }),
      (error) => ({ problem: services.explain(error, `Reading the rollouts of ${place.label}`, place.region) }),
    );
    if (!rollouts) return undefined;
  }
  return writeReport(services, signalCheckReport({ shown: loaded.shown, rollouts, madeAt: new Date() }), panel.source.label, given);
}
