import * as vscode from 'vscode';
import type { PreviewOutcome } from '../../core/reward';
import type { ViewDescriptor } from '../../webview-kit/channel';
import { newNonce } from '../../webview-kit/page';
import { openViewPanel } from '../../webview-kit/panel';
import { failureHtml, previewHtml } from './previewHtml';

// No scripts: the page is static HTML and CSS, which keeps its CSP as tight as it gets.
const REWARD_PREVIEW_VIEW: ViewDescriptor = { viewType: 'mtrl.rewardPreview' };

/** One preview panel per Python file, updated in place when the file's preview changes. */
export class RewardPanels implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();

  show(uri: vscode.Uri, outcome: PreviewOutcome): vscode.WebviewPanel {
    const key = uri.toString();
    let panel = this.panels.get(key);
    if (panel) {
      panel.reveal(undefined, true);
    } else {
      const title = `Reward preview: ${vscode.workspace.asRelativePath(uri)}`;
      panel = openViewPanel(REWARD_PREVIEW_VIEW, title, { show: { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true } });
      this.panels.set(key, panel);
      panel.onDidDispose(() => this.panels.delete(key));
    }
    this.render(panel, uri, outcome);
    return panel;
  }

  /** Re-renders the panel of a file if one is open. */
  update(uri: vscode.Uri, outcome: PreviewOutcome): void {
    const panel = this.panels.get(uri.toString());
    if (panel) this.render(panel, uri, outcome);
  }

  private render(panel: vscode.WebviewPanel, uri: vscode.Uri, outcome: PreviewOutcome): void {
    const nonce = newNonce();
    const name = vscode.workspace.asRelativePath(uri);
    panel.webview.html = outcome.result.ok ? previewHtml(outcome.result, name, nonce) : failureHtml(outcome.result, name, nonce);
  }

  dispose(): void {
    for (const panel of this.panels.values()) panel.dispose();
  }
}
