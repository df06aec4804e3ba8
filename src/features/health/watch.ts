import * as vscode from 'vscode';
import type { HealthFindingKind, HealthReport } from '../../core/health/findings';
import { findingLabel, warningsOf } from '../../core/health/label';
import { isFinished, isInProgress } from '../../core/jobs/status';
import { mlflowConfigOf } from '../../core/jobs/document';
import { healthThresholds } from '../../core/settings';
import { scanSettingsFrom, type ScanResult } from '../../core/scan';
import { loadJobHealth } from '../../services/health/load';
import { scanJobRollouts } from '../../services/health/scan';
import type { JobNode } from '../../services/jobs/nodes';
import { MetricsUnavailable } from '../../services/metrics/load';
import { RunNotFound } from '../../services/metrics/load';
import type { Services } from '../services';
import type { HealthMarks } from './marks';

/** A running job's rollouts are scanned again after this long: reading them all at every 30-s poll would be most of the watch's work. */
const SCAN_EVERY_MS = 10 * 60_000;
/** A scan that takes longer is dropped: the other jobs' checks wait in the same queue. */
const SCAN_CEILING_MS = 2 * 60_000;

/**
 * Checks the Jobs view's jobs: running ones at every poll, finished ones once (their curves no longer change), one at a
 * time with the view's AWS clients; notifies once per running job and kind, remembered across reloads.
 */
export class HealthWatch {
  private readonly finishedChecked = new Set<string>();
  private readonly scans = new Map<string, { at: number; result?: ScanResult }>();
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
        { described: node.details, thresholds: healthThresholds((key) => settings.get(key)), scan: await this.scanOf(node) },
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

  /** The scan of a running job's rollouts, at most every SCAN_EVERY_MS; none for a finished job or one whose rollouts cannot be read. */
  private async scanOf(node: JobNode): Promise<ScanResult | undefined> {
    if (!isInProgress(node.status)) return undefined;
    const last = this.scans.get(node.arn);
    if (last && Date.now() - last.at < SCAN_EVERY_MS) return last.result;
    const { settings } = this.services;
    const scanSettings = scanSettingsFrom(settings.get('scan.thresholds'), settings.get('scan.repeatedCalls'));
    const job = { jobName: node.jobName, category: node.category, region: node.region };
    // A job whose rollouts cannot be read (a Lambda agent, no log yet) still gets its curves checked: the scan is extra.
    const result = await scanJobRollouts(this.services.aws, job, scanSettings, AbortSignal.timeout(SCAN_CEILING_MS)).catch(() => undefined);
    this.scans.set(node.arn, { at: Date.now(), result });
    return result;
  }

  private async notify(node: JobNode, report: HealthReport): Promise<void> {
    const { settings, stores } = this.services;
    if (!settings.get('health.notify')) return;
    const notified = stores.healthNotified.get() ?? {};
    const known = new Set<HealthFindingKind>(notified[node.arn] ?? []);
    const fresh = warningsOf(report).filter((f) => !known.has(f.kind));
    if (!fresh.length) return;
    await stores.healthNotified.set({ ...notified, [node.arn]: [...known, ...fresh.map((f) => f.kind)] });
    for (const finding of fresh) {
      this.services.output.warn(`${node.jobName}: ${findingLabel(finding)}: ${finding.sentence}`);
      // A rising scan kind is read in the rollouts it marks, from the step it began; a curve in the curves.
      const open = finding.kind === 'rising-scan' ? 'Open Rollouts' : 'Open Curves';
      void vscode.window
        .showWarningMessage(`${node.jobName}: ${findingLabel(finding)}. ${finding.sentence} ${finding.action}`, open, 'Stop Job')
        .then((answer) => {
          const job = { jobName: node.jobName, category: node.category, region: node.region };
          if (answer === 'Open Curves') void vscode.commands.executeCommand('mtrl.showMetrics', job);
          if (answer === 'Open Rollouts') void vscode.commands.executeCommand('mtrl.openRollouts', { ...job, step: finding.step });
          // mtrl.stopJob asks first.
          if (answer === 'Stop Job') void vscode.commands.executeCommand('mtrl.stopJob', node);
        });
    }
  }
}
