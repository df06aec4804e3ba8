import * as vscode from 'vscode';
import { progressText } from '../../core/evaluation/queue';
import type { SweepRun } from '../../core/evaluation/sweep';
import { formatDollars } from '../../core/jobs/pricing';
import type { ContributedNode, JobsViewContribution } from '../jobs/contributed';
import type { SweepQueue, TrackedSweep } from './sweepQueue';

const CONTROL_TEXT = { running: 'running', paused: 'paused', cancelled: 'cancelled' };

/** A started sweep at the top of the Jobs view: progress (done / running / waiting), cost so far and the user's say. */
export class SweepNode implements ContributedNode {
  readonly kind = 'contributed';
  readonly parent = undefined;
  // The same node objects on every call: the view redraws what VS Code holds, and VS Code holds objects.
  private readonly runs = new Map<string, SweepRunNode>();

  constructor(readonly tracked: TrackedSweep) {}

  get id(): string {
    return `sweep:${this.tracked.uri.toString()}`;
  }

  children(): ContributedNode[] {
    return (this.tracked.state?.runs ?? []).map((run) => {
      const node = this.runs.get(run.jobName) ?? new SweepRunNode(this, run);
      node.run = run;
      this.runs.set(run.jobName, node);
      return node;
    });
  }

  treeItem(): vscode.TreeItem {
    const { tracked } = this;
    const file = vscode.workspace.asRelativePath(tracked.uri);
    const label = `Sweep ${tracked.sweep?.name ?? file}`;
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    const progress = tracked.state ? progressText(tracked.state.progress) : 'reading…';
    const cost = tracked.state?.cost === undefined ? undefined : formatDollars(tracked.state.cost);
    // The icon says running; paused and cancelled are worth the words.
    const control = tracked.control === 'running' ? undefined : CONTROL_TEXT[tracked.control];
    item.description = [progress, cost, control].filter(Boolean).join(' · ');
    item.accessibilityInformation = { label: `${label}, ${item.description}` };
    const costLine = cost ? `\n\nEstimated token cost so far ${cost}.` : '';
    item.tooltip = new vscode.MarkdownString(
      `**${label}** (${file}), ${CONTROL_TEXT[tracked.control]}: one evaluation at a time.\n\n${progress}.${costLine}${tracked.problem ? `\n\n$(warning) ${tracked.problem}` : ''}`,
      true,
    );
    const icon = tracked.problem ? 'warning' : { running: 'sync', paused: 'debug-pause', cancelled: 'circle-slash' }[tracked.control];
    item.iconPath = new vscode.ThemeIcon(icon, tracked.problem ? new vscode.ThemeColor('list.warningForeground') : undefined);
    item.contextValue = `sweep:${tracked.control}`;
    item.resourceUri = tracked.uri;
    return item;
  }
}

/** One run of a sweep (a model at a grid point) with its job's status; a launched run reveals its job. */
export class SweepRunNode implements ContributedNode {
  readonly kind = 'contributed';

  constructor(
    readonly parent: SweepNode,
    public run: SweepRun,
  ) {}

  get id(): string {
    return `${this.parent.id}#${this.run.jobName}`;
  }

  children(): ContributedNode[] {
    return [];
  }

  treeItem(): vscode.TreeItem {
    const { tracked } = this.parent;
    const status = tracked.state?.jobs.get(this.run.jobName)?.status;
    const item = new vscode.TreeItem(`${this.run.model.label} · ${this.run.settingsLabel}`);
    item.id = this.id;
    item.description = status ?? 'waiting';
    item.tooltip = `${this.run.jobName}\n${status ?? 'not launched yet'}`;
    item.iconPath = new vscode.ThemeIcon(
      status === 'Completed' ? 'pass' : status === 'InProgress' ? 'loading~spin' : status ? 'error' : 'clock',
    );
    item.contextValue = `sweepRun:${status ?? 'waiting'}`;
    if (status && tracked.sweep) {
      const job = { jobName: this.run.jobName, category: 'AgentRFTEvaluation', region: tracked.sweep.region };
      item.command = { command: 'mtrl.revealJob', title: 'Show Job', arguments: [job] };
    }
    return item;
  }
}

/** The queue's sweeps as Jobs view nodes; none when no sweep was started. */
export function sweepsInJobsView(queue: SweepQueue): JobsViewContribution {
  const nodes = new WeakMap<TrackedSweep, SweepNode>();
  const nodeOf = (tracked: TrackedSweep) => nodes.get(tracked) ?? nodes.set(tracked, new SweepNode(tracked)).get(tracked)!;
  return { roots: () => queue.list().map(nodeOf), onDidChange: queue.onDidChange };
}
