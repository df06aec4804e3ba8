import * as vscode from 'vscode';
import { formatDuration } from '../../core/jobs/timeline';
import { visibleText } from '../../core/text/display';
import type { PipelineNode, TransitionNode } from '../../services/jobs/nodes';
import { pipelineRole } from '../../services/jobs/pipelines';

/** One entry of a job's status history: when it began and how long it lasted. */
export function transitionItem(node: TransitionNode): vscode.TreeItem {
  const { entry } = node;
  const item = new vscode.TreeItem(entry.status);
  item.id = node.id;
  const started = entry.start ? entry.start.toISOString().replace('T', ' ').slice(0, 19) : '';
  const duration = entry.durationMs !== undefined ? `${formatDuration(entry.durationMs)}${entry.current ? ' so far' : ''}` : '';
  item.description = [started, duration].filter(Boolean).join(' · ');
  item.tooltip = entry.message ? visibleText(entry.message) : undefined;
  item.iconPath = new vscode.ThemeIcon(entry.current ? 'circle-filled' : 'circle-outline');
  return item;
}

/** One SDK pipeline execution: its base and fine-tuned evaluations below, and a click compares them. */
export function pipelineItem(node: PipelineNode): vscode.TreeItem {
  const item = new vscode.TreeItem(`pipeline ${node.execution}`, vscode.TreeItemCollapsibleState.Expanded);
  item.id = node.id;
  item.iconPath = new vscode.ThemeIcon('git-compare');
  const roles = node.jobs.map((j) => pipelineRole(j) ?? j.jobName);
  item.description = roles.join(' vs ');
  item.accessibilityInformation = { label: `pipeline ${node.execution}, ${roles.join(' vs ')}` };
  item.tooltip = `Evaluations of SageMaker pipeline execution ${node.execution}:\n${node.jobs.map((j) => `${pipelineRole(j) ?? '?'}: ${j.jobName}`).join('\n')}${node.jobs.length > 1 ? '\nClick to compare them.' : ''}`;
  item.contextValue = 'evaluationPipeline';
  if (node.jobs.length > 1) item.command = { command: 'mtrl.compareEvaluations', title: 'Compare', arguments: [node.jobs[0], node.jobs] };
  return item;
}
