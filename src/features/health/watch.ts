import * as vscode from 'vscode';
import type { HealthKind, HealthReport } from '../../core/health/findings';
import { findingLabel, warningsOf } from '../../core/health/label';
import { isFinished, isInProgress } from '../../core/jobs/status';
import { mlflowConfigOf } from '../../core/jobs/document';
import { healthThresholds } from '../../core/settings';
import { loadJobHealth } from '../../services/health/load';
import type { JobNode } from '../../services/jobs/nodes';
import { MetricsUnavailable } from '../../services/metrics/load';
import { RunNotFound } from '../../services/metrics/load';
import type { Services } from '../services';
import type { HealthMarks } from './marks';

/**
 * Checks the Jobs view's jobs: running ones at every poll, finished ones once (their curves no longer change), one at a
 * time with the view's AWS clients; notifies once per running job and kind, remembered across reloads.
 */
export class HealthWatch {
  private readonly finishedChecked = new Set<string>();
  private readonly warned = new Set<string>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly services: Services,
    private readonly marks: HealthMarks,
  ) {}

  /** Checks the running jobs given and the finished ones not checked yet; resolves when done. */
  check(nodes: readonly JobNode[]): Promise<void> {
    const due = nodes.filter(
      (n) =>
        n.details &&
        mlflowConfigOf(n.details.document) &&
        (isInProgress(n.status) || (isFinished(n.status) && !this.finishedChecked.has(n.arn))),
    );
    this.queue = this.queue.then(async () => {
      for (const node of due) await this.checkOne(node);
    });
    return this.queue;
  }

  private async checkOne(node: JobNode): Promise<void> {
    const { settings, output } = this.services;
    try {
      const { report } = await loadJobHealth(
        this.services.aws,
        { jobName: node.jobName, category: node.category, region: node.region },
        { described: node.details, thresholds: healthThresholds((key) => settings.get(key)) },
      );
      if (isFinished(node.status)) this.finishedChecked.add(node.arn);
      this.marks.set(node.id, report);
      if (isInProgress(node.status)) await this.notify(node, report);
    } catch (error) {
      if (error instanceof MetricsUnavailable || error instanceof RunNotFound) {
        if (isFinished(node.status)) this.finishedChecked.add(node.arn);
        return;
      }
      // One warning per job: a poll every 30 s would repeat it.
      if (!this.warned.has(node.arn)) output.warn(this.services.explain(error, `Checking the health of ${node.jobName}`, node.region));
      this.warned.add(node.arn);
    }
  }

  private async notify(node: JobNode, report: HealthReport): Promise<void> {
    const { settings, stores } = this.services;
    if (!settings.get('health.notify')) return;
    const notified = stores.healthNotified.get() ?? {};
    const known = new Set<HealthKind>(notified[node.arn] ?? []);
    const fresh = warningsOf(report).filter((f) => !known.has(f.kind));
    if (!fresh.length) return;
    await stores.healthNotified.set({ ...notified, [node.arn]: [...known, ...fresh.map((f) => f.kind)] });
    for (const finding of fresh) {
      this.services.output.warn(`${node.jobName}: ${findingLabel(finding)}: ${finding.sentence}`);
      void vscode.window
        .showWarningMessage(`${node.jobName}: ${findingLabel(finding)}. ${finding.sentence} ${finding.action}`, 'Open Curves', 'Stop Job')
        .then((answer) => {
          const job = { jobName: node.jobName, category: node.category, region: node.region };
          if (answer === 'Open Curves') void vscode.commands.executeCommand('mtrl.showMetrics', job);
          // mtrl.stopJob asks first.
          if (answer === 'Stop Job') void vscode.commands.executeCommand('mtrl.stopJob', node);
        });
    }
  }
}
