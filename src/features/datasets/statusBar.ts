import * as vscode from 'vscode';
import { summaryLine } from '../../core/dataset';
import type { DatasetValidation } from './validation';

/** The active dataset's summary line; a click opens the Problems view. */
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
    this.item.text = summaryLine(state.report, state.errors);
    this.item.tooltip = `MTRL dataset check of ${vscode.workspace.asRelativePath(state.uri)} (${state.report.format}${state.report.role ? `, ${state.report.role}` : ''}). Click for the Problems view.`;
    this.item.backgroundColor = state.errors ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }
}
