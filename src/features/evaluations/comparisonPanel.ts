import * as vscode from 'vscode';
import { gridCsv, gridMarkdown, type ComparisonGrid } from '../../core/evaluation/grid';
import type { ViewDescriptor } from '../../webview-kit/channel';
import { newNonce } from '../../webview-kit/page';
import { openViewPanel } from '../../webview-kit/panel';
import { comparisonHtml } from './comparisonHtml';

// No scripts: a static table; copying is done by the editor title's buttons.
const COMPARISON_VIEW: ViewDescriptor = { viewType: 'mtrl.comparison' };

/** One comparison panel per title (a sweep, or a selection of jobs), updated in place; the active one is what Copy copies. */
export class ComparisonPanels implements vscode.Disposable {
  private readonly panels = new Map<string, { panel: vscode.WebviewPanel; grid: ComparisonGrid }>();
  private active?: string;

  show(title: string, grid: ComparisonGrid, notes: string[]): vscode.WebviewPanel {
    let entry = this.panels.get(title);
    if (!entry) {
      const panel = openViewPanel(COMPARISON_VIEW, title);
      const created = { panel, grid };
      entry = created;
      this.panels.set(title, created);
      panel.onDidDispose(() => {
        if (this.panels.get(title) === created) this.panels.delete(title);
      });
      panel.onDidChangeViewState((e) => e.webviewPanel.active && (this.active = title));
    }
    entry.grid = grid;
    this.active = title;
    entry.panel.webview.html = comparisonHtml(title, grid, notes, newNonce());
    entry.panel.reveal();
    return entry.panel;
  }

  /** The active comparison as Markdown or CSV, for the clipboard. */
  copyText(format: 'markdown' | 'csv'): string | undefined {
    const grid = this.active ? this.panels.get(this.active)?.grid : undefined;
    if (!grid) return undefined;
    return format === 'markdown' ? gridMarkdown(grid) : gridCsv(grid);
  }

  dispose(): void {
    for (const { panel } of this.panels.values()) panel.dispose();
  }
}
