import * as vscode from 'vscode';
import type { HealthReport } from '../../core/health/findings';

/** The last health report of each job the Jobs view lists, by node id: the tree draws from it, the watch fills it. */
export class HealthMarks implements vscode.Disposable {
  private readonly reports = new Map<string, HealthReport>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the job's node id after its report changed. */
  readonly onDidChange = this.changed.event;

  get(id: string): HealthReport | undefined {
    return this.reports.get(id);
  }

  set(id: string, report: HealthReport): void {
    const before = this.reports.get(id);
    this.reports.set(id, report);
    if (JSON.stringify(before) !== JSON.stringify(report)) this.changed.fire(id);
  }

  has(id: string): boolean {
    return this.reports.has(id);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
