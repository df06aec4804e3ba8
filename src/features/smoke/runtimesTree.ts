import * as vscode from 'vscode';
import type { Services } from '../services';
import type { SmokeResultStore } from '../stores';
import { describeRecord } from '../../core/smoke/record';
import { listRuntimeRows } from '../../services/runtimes';

/** One agent runtime; `runtimeArn` is what `mtrl.smokeTestRuntime` reads from the node. */
class RuntimeNode extends vscode.TreeItem {
  constructor(
    readonly runtimeArn: string,
    name: string,
    status: string,
    results: SmokeResultStore,
  ) {
    super(name, vscode.TreeItemCollapsibleState.None);
    const record = results.get(runtimeArn);
    this.id = runtimeArn;
    this.description = `${status} · ${describeRecord(record)}`;
    this.contextValue = `runtime:${status}`;
    this.iconPath = record
      ? new vscode.ThemeIcon(record.ok ? 'pass' : 'error', new vscode.ThemeColor(record.ok ? 'testing.iconPassed' : 'testing.iconFailed'))
      : new vscode.ThemeIcon(status === 'READY' ? 'server-process' : status.endsWith('FAILED') ? 'warning' : 'loading~spin');
    const tooltip = new vscode.MarkdownString(`**${name}** (${status})\n\n\`${runtimeArn}\``);
    if (record) tooltip.appendMarkdown(`\n\n${record.summary}\n\n_${record.at}_`);
    this.tooltip = tooltip;
  }
}

class MessageNode extends vscode.TreeItem {
  constructor(message: string, icon: string) {
    super(message, vscode.TreeItemCollapsibleState.None);
    this.iconPath = new vscode.ThemeIcon(icon);
    this.tooltip = message;
  }
}

/** The "Agent Runtimes" view: runtimes of the current region with status and last smoke result. */
export class RuntimesTreeProvider implements vscode.TreeDataProvider<vscode.TreeItem> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly services: Services,
    private readonly results: SmokeResultStore,
  ) {}

  refresh(): void {
    this.changed.fire();
  }

  getTreeItem(node: vscode.TreeItem): vscode.TreeItem {
    return node;
  }

  async getChildren(node?: vscode.TreeItem): Promise<vscode.TreeItem[]> {
    if (node) return [];
    const listing = await listRuntimeRows(this.services.aws, this.services.explain);
    if ('runtimes' in listing) return listing.runtimes.map((r) => new RuntimeNode(r.arn, r.name, r.status, this.results));
    if (listing.error) this.services.output.error(listing.message);
    return [new MessageNode(listing.message, listing.error ? 'error' : 'info')];
  }

  dispose(): void {
    this.changed.dispose();
  }
}
