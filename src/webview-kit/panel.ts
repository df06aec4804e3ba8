import * as vscode from 'vscode';
import type { ChannelOptions, ViewDescriptor, ViewProtocol } from './channel';
import { HostChannel } from './host';
import { appPage, newNonce } from './page';

// The kit's one `vscode` file: every panel is opened, filled and restored here, so their options never drift apart.

const webviewFolder = (extensionUri: vscode.Uri) => vscode.Uri.joinPath(extensionUri, 'dist', 'webview');

/** An app may load only the built webview folder. */
function optionsOf(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [webviewFolder(extensionUri)] };
}

interface OpenOptions {
  /** Where the app's bundle is: the extension's URI. */
  extensionUri: vscode.Uri;
  show?: vscode.ViewColumn | { viewColumn: vscode.ViewColumn; preserveFocus?: boolean };
}

/** A new panel of the view, in place unless told; its page is filled by `showApp`. */
export function openViewPanel(view: ViewDescriptor, title: string, options: OpenOptions): vscode.WebviewPanel {
  const show = options.show ?? vscode.ViewColumn.Active;
  return vscode.window.createWebviewPanel(view.viewType, title, show, optionsOf(options.extensionUri));
}

/** Fills a panel (new, restored after a reload, or a custom editor's) with the view's app and connects its typed channel. */
export function showApp<P extends ViewProtocol>(
  panel: vscode.WebviewPanel,
  extensionUri: vscode.Uri,
  view: ViewDescriptor,
  initial: unknown,
  channel?: ChannelOptions,
): HostChannel<P> {
  const { webview } = panel;
  webview.options = optionsOf(extensionUri);
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(webviewFolder(extensionUri), name)).toString();
  const assets = { scriptUri: asset(view.script), codiconUri: asset('codicon.css'), cspSource: webview.cspSource, nonce: newNonce() };
  webview.html = appPage(view, assets, initial);
  return HostChannel.forWebview<P>(webview, channel);
}

/** Brings the view's panels back after a window reload, with the state their page saved (undefined when it saved none). */
export function restoreViewPanels<S>(
  view: ViewDescriptor,
  restore: (panel: vscode.WebviewPanel, state: S | undefined) => void,
): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(view.viewType, {
    async deserializeWebviewPanel(panel, state) {
      restore(panel, (state ?? undefined) as S | undefined);
    },
  });
}
