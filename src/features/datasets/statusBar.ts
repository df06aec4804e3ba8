import * as vscode from 'vscode';
import type { DatasetState, DatasetValidation } from './validation';

/** "600 rows · 4 steps/epoch @128 · ✓" for the active dataset; a click opens the Problems view. */
export function statusText(state: DatasetState): string {
  const { report } = state;
  const rows = `${report.rows.toLocaleString('en')} row${report.rows === 1 ? '' : 's'}`;
  const middle = report.role === 'training' ? `${report.stepsPerEpoch} steps/epoch @${report.batchSize}` : (report.role ?? report.format);
  const verdict = state.errors ? `$(error) ${state.errors.toLocaleString('en')} error${state.errors === 1 ? '' : 's'}` : '✓';
  return `${rows} · ${middle} · ${verdict}`;
}

export class DatasetStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('mtrl.datasets', vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly validation: DatasetValidation) {
    this.item.name = 'MTRL Dataset';
    this.item.command = { title: 'Show Problems', command: 'workbench.actions.view.problems' };
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      validation.onDidValidate(() => this.update()),
    );
    this.update();
  }

  update(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const state = uri && this.validation.state(uri);
    if (!state) {
      this.item.hide();
      return;
    }
    this.item.text = statusText(state);
    this.item.tooltip = `MTRL dataset check of ${vscode.workspace.asRelativePath(state.uri)} (${state.report.format}${state.report.role ? `, ${state.report.role}` : ''}). Click for the Problems view.`;
    this.item.backgroundColor = state.errors ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }
}
