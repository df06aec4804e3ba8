import * as vscode from 'vscode';
import { formatDollars } from '../../core/jobs/pricing';
import { kindWord } from '../../core/resources/references';
import { formatBytes } from '../../services/resources/cleanupPlan';
import type { Inventory, InventoryItem } from '../../services/resources/inventory';
import {
  RESOURCES_LOADING,
  resourcesChildren,
  type ResourcesSection,
  type ResourcesTreeNode,
  type SectionNode,
  type SpendNode,
} from '../../services/resources/tree';
import type { MessageNode } from '../../services/treeNodes';
import { messageItem, withWelcome } from '../treeItems';

const SECTIONS: Record<ResourcesSection, { label: string; icon: string }> = {
  spend: { label: 'Token spend per job', icon: 'credit-card' },
  runtime: { label: 'Agent runtimes', icon: 'server-process' },
  role: { label: 'Job roles', icon: 'shield' },
  mlflowApp: { label: 'MLflow apps', icon: 'graph-line' },
  s3Prefix: { label: 'S3 prefixes', icon: 'folder' },
  notificationRule: { label: 'Notification rules', icon: 'bell' },
};

/** Tree items over the last inventory (or the sentence shown instead); checkboxes pick what "Clean Up…" offers first. */
export class ResourcesTreeProvider implements vscode.TreeDataProvider<ResourcesTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ResourcesTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private inventory?: Inventory;
  private state: MessageNode<undefined> = RESOURCES_LOADING;
  /** Resource ids checked in the tree. */
  readonly checked = new Set<string>();

  show(inventory: Inventory): void {
    this.inventory = inventory;
    this.changed.fire(undefined);
  }

  showMessage(node: MessageNode<undefined>): void {
    this.inventory = undefined;
    this.state = node;
    this.changed.fire(undefined);
  }

  getChildren(node?: ResourcesTreeNode): ResourcesTreeNode[] {
    if (!node) return withWelcome('resources', this.inventory ? resourcesChildren(this.inventory, node) : [this.state]);
    return this.inventory ? resourcesChildren(this.inventory, node) : [];
  }

  getTreeItem(node: ResourcesTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'message':
        return messageItem(node);
      case 'spend':
        return spendItem(node);
      case 'section':
        return this.sectionItem(node);
      case 'item':
        return this.resourceItem(node.item);
    }
  }

  private sectionItem(node: SectionNode): vscode.TreeItem {
    const s = SECTIONS[node.section];
    const item = new vscode.TreeItem(s.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = node.id;
    item.description =
      node.section === 'spend' && this.inventory ? `${formatDollars(this.inventory.spend.monthToDate)} this month` : String(node.count);
    item.iconPath = new vscode.ThemeIcon(s.icon);
    return item;
  }

  private resourceItem(r: InventoryItem): vscode.TreeItem {
    const item = new vscode.TreeItem(
      r.label,
      r.children?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = r.ref.id;
    const parts = [
      r.running.length ? `in use by ${r.running.join(', ')}` : undefined,
      r.size ? `${r.size.objects} objects · ${formatBytes(r.size.bytes)}` : undefined,
      r.monthlyCost !== undefined ? `~${formatDollars(r.monthlyCost)}/month` : undefined,
      r.ref.kind === 'role' ? undefined : r.status,
      `${r.jobs.length} job${r.jobs.length === 1 ? '' : 's'}`,
    ].filter(Boolean);
    item.description = parts.join(' · ');
    item.iconPath = r.running.length
      ? new vscode.ThemeIcon('lock', new vscode.ThemeColor('charts.yellow'))
      : new vscode.ThemeIcon(SECTIONS[r.ref.kind].icon);
    item.contextValue = r.running.length ? 'resource:inUse' : 'resource';
    item.tooltip = new vscode.MarkdownString(
      [
        `**${kindWord(r.ref.kind)}** \`${r.ref.id}\``,
        r.status ? `Status: ${r.status}` : '',
        r.jobs.length ? `Jobs: ${r.jobs.join(', ')}` : 'No job names it.',
        r.running.length ? `**In use** by running ${r.running.join(', ')}: a cleanup leaves it alone.` : '',
        r.monthlyCost !== undefined
          ? `Keeping it: about ${formatDollars(r.monthlyCost)} a month at S3 Standard prices.`
          : 'What keeping it costs is not known here.',
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
    if (!r.running.length)
      item.checkboxState = this.checked.has(r.ref.id) ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked;
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function spendItem(node: SpendNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.job.name);
  item.id = node.id;
  item.description = formatDollars(node.cost);
  item.iconPath = new vscode.ThemeIcon('credit-card');
  item.tooltip = `${node.job.name}: ${formatDollars(node.cost)} in tokens (BillableTokenUsage × mtrl.pricing). AgentCore compute is billed apart and not visible here.`;
  return item;
}
