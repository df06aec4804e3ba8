import * as vscode from 'vscode';
import type { Services } from '../services';
import type { SmokeResultStore } from '../stores';
import { describeRecord } from '../../core/smoke/record';
import { listRuntimeNodes, type RuntimeNode, type RuntimesTreeNode } from '../../services/runtimes';
import { messageItem, withWelcome } from '../treeItems';

/** The "Agent Runtimes" view: runtimes of the current region with status and last smoke result. */
export class RuntimesTreeProvider implements vscode.TreeDataProvider<RuntimesTreeNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly services: Services,
    private readonly results: SmokeResultStore,
  ) {}

  refresh(): void {
    this.changed.fire();
  }

  getTreeItem(node: RuntimesTreeNode): vscode.TreeItem {
    return node.kind === 'message' ? messageItem(node) : this.runtimeItem(node);
  }

  async getChildren(node?: RuntimesTreeNode): Promise<RuntimesTreeNode[]> {
    if (node) return [];
    const nodes = await listRuntimeNodes(this.services.aws, this.services.explain);
    for (const n of nodes) if (n.kind === 'message' && n.message !== 'empty') this.services.output.error(n.text);
    return withWelcome('runtimes', nodes);
  }

  private runtimeItem(node: RuntimeNode): vscode.TreeItem {
    const { runtimeArn, name, status } = node;
    const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
    const record = this.results.get(runtimeArn);
    item.id = node.id;
    item.description = `${status} · ${describeRecord(record)}`;
    item.contextValue = `runtime:${status}`;
    item.iconPath = record
      ? new vscode.ThemeIcon(record.ok ? 'pass' : 'error', new vscode.ThemeColor(record.ok ? 'testing.iconPassed' : 'testing.iconFailed'))
      : new vscode.ThemeIcon(status === 'READY' ? 'server-process' : status.endsWith('FAILED') ? 'warning' : 'loading~spin');
    const tooltip = new vscode.MarkdownString(`**${name}** (${status})\n\n\`${runtimeArn}\``);
    if (record) tooltip.appendMarkdown(`\n\n${record.summary}\n\n_${record.at}_`);
    item.tooltip = tooltip;
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
