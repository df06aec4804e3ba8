import * as vscode from 'vscode';
import { formatDollars } from '../../core/jobs/pricing';
import { kindWord, type ResourceKind } from '../../core/resources/references';
import { formatBytes } from '../../services/resources/cleanupPlan';
import type { Inventory, InventoryItem } from '../../services/resources/inventory';

/** A node of the Resources view: a section, a resource, one job's spend, or a sentence (empty state, error). */
type ResourcesNode =
  | { kind: 'section'; section: Section; items: InventoryItem[] }
  | { kind: 'item'; item: InventoryItem }
  | { kind: 'spend'; job: string; cost: number }
  | { kind: 'message'; text: string; icon: string };

type Section = 'spend' | ResourceKind;

const SECTIONS: Record<Section, { label: string; icon: string; empty: string }> = {
  spend: { label: 'Token spend per job', icon: 'credit-card', empty: 'No job reports billable tokens yet.' },
  runtime: { label: 'Agent runtimes', icon: 'server-process', empty: 'No agent runtime in these regions.' },
  role: { label: 'Job roles', icon: 'shield', empty: 'No role is named by a job.' },
  mlflowApp: { label: 'MLflow apps', icon: 'graph-line', empty: 'No MLflow app in these regions.' },
  s3Prefix: { label: 'S3 prefixes', icon: 'folder', empty: 'No job reads or writes S3 here.' },
};

/** Tree items over the last inventory; checkboxes pick what "Clean Up…" offers first. */
export class ResourcesTreeProvider implements vscode.TreeDataProvider<ResourcesNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ResourcesNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private inventory?: Inventory;
  private state: ResourcesNode[] = [{ kind: 'message', text: 'Loading what your jobs left behind…', icon: 'loading~spin' }];
  /** Resource ids checked in the tree. */
  readonly checked = new Set<string>();

  show(inventory: Inventory): void {
    this.inventory = inventory;
    this.changed.fire(undefined);
  }

  showMessage(text: string, icon = 'warning'): void {
    this.inventory = undefined;
    this.state = [{ kind: 'message', text, icon }];
    this.changed.fire(undefined);
  }

  getChildren(node?: ResourcesNode): ResourcesNode[] {
    const inv = this.inventory;
    if (!node) {
      if (!inv) return this.state;
      return [
        ...inv.problems.map((text): ResourcesNode => ({ kind: 'message', text, icon: 'warning' })),
        { kind: 'section', section: 'spend', items: [] },
        ...(['runtime', 'role', 'mlflowApp', 's3Prefix'] as const).map((section): ResourcesNode => ({
          kind: 'section',
          section,
          items: this.items(inv, section),
        })),
      ];
    }
    if (node.kind === 'section') {
      if (node.section === 'spend') {
        const rows =
          inv?.spend.jobs.filter((j) => j.cost).map((j): ResourcesNode => ({ kind: 'spend', job: j.job.name, cost: j.cost?.total ?? 0 })) ??
          [];
        return rows.length ? rows : [{ kind: 'message', text: SECTIONS.spend.empty, icon: 'info' }];
      }
      return node.items.length
        ? node.items.map((item): ResourcesNode => ({ kind: 'item', item }))
        : [{ kind: 'message', text: SECTIONS[node.section].empty, icon: 'info' }];
    }
    if (node.kind === 'item') return (node.item.children ?? []).map((item): ResourcesNode => ({ kind: 'item', item }));
    return [];
  }

  private items(inv: Inventory, kind: ResourceKind): InventoryItem[] {
    return { runtime: inv.runtimes, role: inv.roles, mlflowApp: inv.mlflowApps, s3Prefix: inv.prefixes }[kind];
  }

  getTreeItem(node: ResourcesNode): vscode.TreeItem {
    switch (node.kind) {
      case 'message': {
        const item = new vscode.TreeItem(node.text);
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.tooltip = node.text;
        return item;
      }
      case 'spend': {
        const item = new vscode.TreeItem(node.job);
        item.description = formatDollars(node.cost);
        item.iconPath = new vscode.ThemeIcon('credit-card');
        item.tooltip = `${node.job}: ${formatDollars(node.cost)} in tokens (BillableTokenUsage × mtrl.pricing). AgentCore compute is billed apart and not visible here.`;
        return item;
      }
      case 'section': {
        const s = SECTIONS[node.section];
        const count = node.section === 'spend' ? (this.inventory?.spend.jobs.filter((j) => j.cost).length ?? 0) : node.items.length;
        const item = new vscode.TreeItem(s.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `section:${node.section}`;
        item.description =
          node.section === 'spend' && this.inventory ? `${formatDollars(this.inventory.spend.monthToDate)} this month` : String(count);
        item.iconPath = new vscode.ThemeIcon(s.icon);
        return item;
      }
      case 'item':
        return this.resourceItem(node.item);
    }
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
