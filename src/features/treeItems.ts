import * as vscode from 'vscode';
import { visibleText } from '../core/text/display';
import type { LoadMoreNode, MessageKind, MessageNode } from '../services/treeNodes';

/** Each message kind's codicon and colour, the same in every view. */
const MESSAGE_ICONS: Record<MessageKind, { icon: string; color?: string }> = {
  loading: { icon: 'loading~spin' },
  empty: { icon: 'info' },
  noMatch: { icon: 'filter' },
  warning: { icon: 'warning', color: 'list.warningForeground' },
  error: { icon: 'error', color: 'errorForeground' },
  credentials: { icon: 'key', color: 'list.warningForeground' },
};

/** The row of a message node in any view: the sentence, its fix named beside it and run on a click. */
export function messageItem(node: MessageNode): vscode.TreeItem {
  const item = new vscode.TreeItem(visibleText(node.text));
  item.id = node.id;
  item.tooltip = visibleText(node.text);
  const look = MESSAGE_ICONS[node.message];
  item.iconPath = new vscode.ThemeIcon(node.icon ?? look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
  item.contextValue = `message:${node.message}`;
  if (node.fix) {
    item.description = node.fix.title;
    item.command = { command: node.fix.command, title: node.fix.title, arguments: node.fix.arguments ?? [] };
  }
  return item;
}

/** The row of a load-more node in any view. */
export function loadMoreItem(node: LoadMoreNode): vscode.TreeItem {
  const item = new vscode.TreeItem(`${node.fix.title}…`);
  item.id = node.id;
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.tooltip = node.tooltip;
  item.command = { command: node.fix.command, title: node.fix.title, arguments: node.fix.arguments ?? [] };
  return item;
}

/** The views whose empty and no-credentials states are welcome views (package.json `viewsWelcome`, keyed by this context). */
export type WelcomeView = 'jobs' | 'runtimes' | 'resources';

/** Marks which welcome content a view shows (VS Code shows it only while the tree is empty): the context key `mtrl.<view>.welcome`. */
export function showWelcome(view: WelcomeView, welcome: 'credentials' | 'empty' | ''): void {
  void vscode.commands.executeCommand('setContext', `mtrl.${view}.welcome`, welcome);
}

/**
 * A view's top level: a lone "empty" or "credentials" message becomes the view's welcome content, marked by
 * `showWelcome`; anything else is drawn as it is.
 */
export function withWelcome<N extends { kind: string }>(view: WelcomeView, nodes: N[]): N[] {
  const only = nodes.length === 1 && nodes[0].kind === 'message' ? (nodes[0] as unknown as MessageNode) : undefined;
  const welcome = only && (only.message === 'empty' || only.message === 'credentials') ? only.message : '';
  showWelcome(view, welcome);
  return welcome ? [] : nodes;
}
