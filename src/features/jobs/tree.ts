import * as vscode from 'vscode';
import { formatDollars, type PricingTable } from '../../core/jobs/pricing';
import { categoryLabel, statusIcon } from '../../core/jobs/status';
import { jobDescription, jobFacts } from '../../core/jobs/summary';
import { jobLabel } from '../../core/jobs/label';
import { jobTooltip } from '../../core/jobs/tooltip';
import { documentFacts, mlflowConfigOf } from '../../core/jobs/document';
import type { ContributedNode, JobsViewContribution } from './contributed';
import { visibleText } from '../../core/text/display';
import type { JobsModel } from '../../services/jobs/model';
import { pipelineRole } from '../../services/jobs/pipelines';
import { drawnParent, type JobNode, type JobsTreeNode, type RootNode, type SectionNode } from '../../services/jobs/nodes';
import { TreeRedraws } from '../../services/jobs/redraws';
import { jobsWelcome } from '../../services/jobs/welcome';
import { loadMoreItem, messageItem, showWelcome } from '../treeItems';
import { pipelineItem, transitionItem } from './rowItems';
import type { HealthReport } from '../../core/health/findings';
import { findingLabel, HEALTH_LINK_COMMANDS, healthMarkdown, warningsOf } from '../../core/health/label';

type Node = JobsTreeNode | ContributedNode;

const SECTIONS = {
  configuration: { label: 'Configuration', icon: 'json', command: 'mtrl.openJobConfiguration' },
  history: { label: 'Status history', icon: 'history', command: undefined },
  logs: { label: 'Service logs', icon: 'output', command: 'mtrl.openJobLogs' },
  rollouts: { label: 'Rollouts', icon: 'play-circle', command: 'mtrl.openRollouts' },
} as const;

/** The thin VS Code layer over JobsModel: turns nodes into tree items. */
export class JobsTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly redraws = new TreeRedraws<Node>(
    (nodes) => this.changed.fire(nodes),
    { visible: () => Boolean(this.view?.visible), expanded: (node) => this.isExpanded(node) },
    (message) => this.log(message),
  );
  private view?: vscode.TreeView<Node>;
  /** Roots are drawn expanded, other nodes collapsed: what the user changed since, by id. */
  private readonly toggled = new Set<string>();
  private readonly subscription: { dispose(): void };
  private readonly contributions: JobsViewContribution[] = [];
  private readonly jobsToRedraw = new Set<JobNode>();
  private jobsTimer?: ReturnType<typeof setTimeout>;
  private jobsBatch?: Promise<void>;
  /** The view shows its welcome content (no credentials, or no job anywhere) instead of its roots. */
  private welcoming = false;

  constructor(
    private readonly model: JobsModel,
    private readonly pricing: () => PricingTable,
    private readonly log: (message: string) => void,
    private readonly health: (node: JobNode) => HealthReport | undefined = () => undefined,
  ) {
    this.subscription = model.onDidChange((node) => {
      // While the welcome content shows, VS Code holds no root to redraw: the whole view is asked again.
      if (this.welcoming) this.redraws.redraw();
      else if (node?.kind === 'job') this.redrawJob(node);
      else this.redraws.redraw(node && [node]);
    });
  }

  dispose(): void {
    clearTimeout(this.jobsTimer);
    this.subscription.dispose();
    this.changed.dispose();
  }

  /**
   * A job whose details changed is redrawn on its own. VS Code fetches a redrawn root's children again but keeps a row
   * whose id did not change as it was drawn (while its tooltip is the new one), and it drops a job from a batch that also
   * redraws its root: so jobs go in a batch of their own, after VS Code's 200 ms batching window.
   */
  redrawJob(node: JobNode): void {
    this.jobsToRedraw.add(node);
    this.jobsBatch ??= new Promise<void>((resolve) => {
      this.jobsTimer = setTimeout(() => {
        this.jobsTimer = this.jobsBatch = undefined;
        const jobs = [...this.jobsToRedraw];
        this.jobsToRedraw.clear();
        this.redraws.redraw(jobs);
        resolve();
      }, 250);
    });
  }

  /** Redraws every root and listed job (prices changed) without listing again. */
  redraw(): void {
    this.redraws.redraw(this.model.getRoots());
    for (const root of this.model.getRoots()) root.jobs.forEach((job) => this.redrawJob(job));
  }

  /** The view this provider draws: its visibility and what the user expanded tell which children VS Code will ask for. */
  track(view: vscode.TreeView<Node>): vscode.Disposable {
    this.view = view;
    const toggle = (node: Node) => (this.toggled.has(node.id) ? this.toggled.delete(node.id) : this.toggled.add(node.id));
    return vscode.Disposable.from(
      view.onDidExpandElement((e) => this.isExpanded(e.element) || toggle(e.element)),
      view.onDidCollapseElement((e) => {
        if (this.isExpanded(e.element)) toggle(e.element);
        this.redraws.collapsed(e.element);
      }),
      view.onDidChangeVisibility((e) => e.visible || this.redraws.hidden()),
    );
  }

  private isExpanded(node: Node): boolean {
    return (node.kind === 'root' || node.kind === 'pipeline') !== this.toggled.has(node.id);
  }

  /** Resolves once the view has drawn every redraw asked so far (the jobs' own batch included). */
  async quiet(): Promise<void> {
    await this.jobsBatch;
    await this.redraws.quiet();
  }

  /** Reveals the job VS Code holds under this id (the listed one after a refresh), once no redraw or fetch is under way. */
  reveal(node: JobNode, options: { select?: boolean; focus?: boolean; expand?: boolean }): Promise<JobNode> {
    return this.redraws.reveal(async () => {
      const current = (this.redraws.handedNode(node.id) as JobNode | undefined) ?? this.model.listed(node) ?? node;
      await this.view?.reveal(current, options);
      return current;
    });
  }

  /** Another feature's nodes above the region roots (evaluation sweeps). */
  contribute(contribution: JobsViewContribution): vscode.Disposable {
    this.contributions.push(contribution);
    // Only a change of the top-level list redraws the whole tree; otherwise the contributed nodes redraw themselves.
    let shown = contribution.roots().map((n) => n.id);
    const subscription = contribution.onDidChange(() => {
      const roots = contribution.roots();
      const ids = roots.map((n) => n.id);
      this.redraws.redraw(ids.join() === shown.join() ? roots : undefined);
      shown = ids;
    });
    this.redraws.redraw();
    return new vscode.Disposable(() => {
      subscription.dispose();
      this.contributions.splice(this.contributions.indexOf(contribution), 1);
      this.redraws.redraw();
    });
  }

  getChildren(node?: Node): Promise<Node[]> {
    return this.redraws.children(node, async () => {
      if (node?.kind === 'contributed') return node.children();
      const nodes = await this.model.getChildren(node);
      if (node) return nodes;
      const contributed = this.contributions.flatMap((c) => c.roots());
      const welcome = contributed.length ? '' : await jobsWelcome(this.model);
      this.welcoming = welcome !== '';
      showWelcome('jobs', welcome);
      return welcome ? [] : [...contributed, ...nodes];
    });
  }

  /** The parent VS Code holds, when it holds one: a listing since made new pipeline nodes it has not met. */
  getParent(node: Node): Node | undefined {
    const parent = node.kind === 'contributed' ? node.parent : drawnParent(node);
    return parent && (this.redraws.handedNode(parent.id) ?? parent);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'contributed':
        return node.treeItem();
      case 'root':
        return this.rootItem(node);
      case 'pipeline':
        return pipelineItem(node);
      case 'job':
        return this.jobItem(node);
      case 'section':
        return this.sectionItem(node);
      case 'transition':
        return transitionItem(node);
      case 'loadMore':
        return loadMoreItem(node);
      case 'message':
        return messageItem(node);
    }
  }

  private rootItem(root: RootNode): vscode.TreeItem {
    const item = new vscode.TreeItem(categoryLabel(root.category), vscode.TreeItemCollapsibleState.Expanded);
    item.id = root.id;
    item.iconPath = new vscode.ThemeIcon(root.category === 'AgentRFT' ? 'mortar-board' : 'beaker');
    const cost = this.model.rootCost(root, this.pricing());
    const count =
      root.loaded && !root.error
        ? `${root.jobs.length}${root.nextToken ? '+' : ''} ${root.jobs.length === 1 && !root.nextToken ? 'job' : 'jobs'}`
        : undefined;
    item.description = [root.region, count, cost !== undefined ? formatDollars(cost) : undefined].filter(Boolean).join(' · ');
    item.tooltip = `${categoryLabel(root.category)} jobs (${root.category}) in ${root.region}${cost !== undefined ? `; estimated token cost of the listed jobs ${formatDollars(cost)}` : ''}`;
    item.contextValue = 'jobsRoot';
    return item;
  }

  private jobItem(node: JobNode): vscode.TreeItem {
    // A short name and the facts most important first: at the default sidebar width the row still shows progress and cost.
    // Under its pipeline node the role tells the pair apart (the SDK's run names are fixed and repeat).
    const role = node.pipeline ? pipelineRole(node) : undefined;
    const runName = role ? undefined : mlflowConfigOf(node.details?.document)?.MlflowRunName;
    const label = jobLabel(
      node.jobName,
      node.parent.jobs.map((j) => j.jobName),
      { runName, pipelineRole: role },
    );
    const item = new vscode.TreeItem(visibleText(label), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = node.id;
    const job = node.job;
    const icon = statusIcon(job.status, job.secondaryStatus);
    item.iconPath = new vscode.ThemeIcon(
      icon.spin ? `${icon.codicon}~spin` : icon.codicon,
      icon.color ? new vscode.ThemeColor(icon.color) : undefined,
    );
    item.description = visibleText(jobDescription(job, this.pricing(), this.model.now()));
    item.contextValue = node.contextValue;
    const spoken = jobFacts(job, this.pricing(), this.model.now()).map((f) => f.spoken ?? f.text);
    item.accessibilityInformation = { label: visibleText([node.jobName, job.status, ...spoken].join(', ')) };
    if (node.details) {
      const tooltip = new vscode.MarkdownString(jobTooltip(node.details, this.pricing(), this.model.now()), true);
      tooltip.supportHtml = false;
      if (node.details.document && mlflowConfigOf(node.details.document as Record<string, unknown>)) {
        tooltip.isTrusted = { enabledCommands: ['mtrl.showMetrics'] };
        const args = encodeURIComponent(JSON.stringify([{ jobName: node.jobName, category: node.category, region: node.region }]));
        tooltip.appendMarkdown(`\n\n[$(graph-line) Show Metrics](command:mtrl.showMetrics?${args})`);
      }
      item.tooltip = tooltip;
    } else item.tooltip = visibleText(`${node.jobName}: ${job.status}.${node.describeError ? ` ${node.describeError}` : ''}`);
    this.markHealth(item, node);
    return item;
  }

  /** A finding still holding: the warning icon and the finding first in the description; every finding in the tooltip. */
  private markHealth(item: vscode.TreeItem, node: JobNode): void {
    const report = this.health(node);
    if (!report?.findings.length) return;
    const warnings = warningsOf(report);
    if (warnings.length) {
      item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
      item.description = `${warnings.map(findingLabel).join(', ')} · ${item.description ?? ''}`;
    }
    // A plain tooltip (a job name, an AWS error) is text: escaped, since the links below make the tooltip trusted.
    const tooltip =
      item.tooltip instanceof vscode.MarkdownString
        ? item.tooltip
        : new vscode.MarkdownString(undefined, true).appendText(String(item.tooltip ?? ''));
    tooltip.supportThemeIcons = true;
    const runtimeArn = node.details?.document && documentFacts(node.category, node.details.document).runtimeArn;
    const job = { jobName: node.jobName, category: node.category, region: node.region };
    tooltip.appendMarkdown(`\n\n${healthMarkdown(report, { job, runtimeArn })}`);
    const trusted = typeof tooltip.isTrusted === 'object' ? tooltip.isTrusted.enabledCommands : [];
    tooltip.isTrusted = { enabledCommands: [...trusted, ...HEALTH_LINK_COMMANDS] };
    item.tooltip = tooltip;
  }

  private sectionItem(node: SectionNode): vscode.TreeItem {
    const section = SECTIONS[node.section];
    const collapsible = node.section === 'history' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(section.label, collapsible);
    item.id = node.id;
    item.iconPath = new vscode.ThemeIcon(section.icon);
    item.contextValue = `jobSection:${node.section}`;
    if (node.section === 'history') item.description = `${node.parent.details?.transitions.length ?? 0} transitions`;
    if (section.command) item.command = { command: section.command, title: section.label, arguments: [node.parent] };
    return item;
  }
}
