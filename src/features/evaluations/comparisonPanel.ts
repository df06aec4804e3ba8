import * as vscode from 'vscode';
import { gridCsv, gridMarkdown, type ComparisonGrid } from '../../core/evaluation/grid';
import { COMPARISON_VIEW, comparisonState, type ComparisonProtocol } from '../../shared/comparison';
import type { HostChannel } from '../../webview-kit/host';
import { openViewPanel, showApp } from '../../webview-kit/panel';

interface Shown {
  panel: vscode.WebviewPanel;
  channel: HostChannel<ComparisonProtocol>;
  grid: ComparisonGrid;
}

/** One comparison panel per title (a sweep, or a selection of jobs), updated in place; the active one is what Copy copies. */
export class ComparisonPanels implements vscode.Disposable {
  private readonly panels = new Map<string, Shown>();
  private active?: string;

  constructor(private readonly extensionUri: vscode.Uri) {}

  show(title: string, grid: ComparisonGrid, notes: string[]): vscode.WebviewPanel {
    const state = comparisonState(title, grid, notes);
    let entry = this.panels.get(title);
    if (entry) {
      entry.grid = grid;
      entry.channel.notify('state', state);
    } else {
      const panel = openViewPanel(COMPARISON_VIEW, title, { extensionUri: this.extensionUri });
      const channel = showApp<ComparisonProtocol>(panel, this.extensionUri, COMPARISON_VIEW, state);
      const created = { panel, channel, grid };
      entry = created;
      this.panels.set(title, created);
      panel.onDidDispose(() => {
        channel.dispose();
        if (this.panels.get(title) === created) this.panels.delete(title);
      });
      panel.onDidChangeViewState((e) => e.webviewPanel.active && (this.active = title));
    }
    this.active = title;
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
