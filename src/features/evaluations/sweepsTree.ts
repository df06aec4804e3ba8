import * as vscode from 'vscode';
import type { SweepRun } from '../../core/evaluation/sweep';
import type { SweepQueue, TrackedSweep } from './sweepQueue';

type Node = { kind: 'sweep'; tracked: TrackedSweep } | { kind: 'run'; tracked: TrackedSweep; run: SweepRun } | { kind: 'empty' };

const CONTROL_TEXT = { running: 'running', paused: 'paused', cancelled: 'cancelled' };

/** Sweep nodes with progress (done / running / waiting), the user's say, and each run with its job's status. */
export class SweepsTreeProvider implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly queue: SweepQueue) {
    queue.onDidChange(() => this.changed.fire());
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      const sweeps = this.queue.list();
      return sweeps.length ? sweeps.map((tracked) => ({ kind: 'sweep', tracked })) : [{ kind: 'empty' }];
    }
    if (node.kind !== 'sweep') return [];
    return (node.tracked.state?.runs ?? []).map((run) => ({ kind: 'run', tracked: node.tracked, run }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'empty') {
      const item = new vscode.TreeItem('No sweep started. Run "MTRL: New Evaluation Sweep…" or open a *.mtrl-sweep.json file.');
      item.command = { command: 'mtrl.newSweep', title: 'New Evaluation Sweep…' };
      return item;
    }
    const { tracked } = node;
    if (node.kind === 'sweep') {
      const name = tracked.sweep?.name ?? vscode.workspace.asRelativePath(tracked.uri);
      const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `sweep:${tracked.uri.toString()}`;
      const p = tracked.state?.progress;
      const progress = p
        ? `${p.done}/${p.total} done · ${p.running} running · ${p.waiting} waiting${p.failed ? ` · ${p.failed} failed` : ''}`
        : 'reading…';
      const cost = tracked.state?.cost === undefined ? '' : ` · $${tracked.state.cost.toFixed(2)}`;
      item.description = `${progress}${cost} · ${CONTROL_TEXT[tracked.control]}`;
      item.tooltip = new vscode.MarkdownString(
        `**${name}** (${vscode.workspace.asRelativePath(tracked.uri)})\n\n${progress}, ${CONTROL_TEXT[tracked.control]}${tracked.problem ? `\n\n$(warning) ${tracked.problem}` : ''}`,
        true,
      );
      item.iconPath = new vscode.ThemeIcon(
        tracked.problem
          ? 'warning'
          : tracked.control === 'running'
            ? 'sync'
            : tracked.control === 'paused'
              ? 'debug-pause'
              : 'circle-slash',
      );
      item.contextValue = `sweep:${tracked.control}`;
      item.resourceUri = tracked.uri;
      return item;
    }
    const status = tracked.state?.jobs.get(node.run.jobName)?.status;
    const item = new vscode.TreeItem(`${node.run.model.label} · ${node.run.settingsLabel}`);
    item.description = status ?? 'waiting';
    item.tooltip = `${node.run.jobName}\n${status ?? 'not launched yet'}`;
    item.iconPath = new vscode.ThemeIcon(
      status === 'Completed' ? 'pass' : status === 'InProgress' ? 'loading~spin' : status ? 'error' : 'clock',
    );
    item.contextValue = status ? `sweepRun:${status}` : 'sweepRun:waiting';
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
