import * as vscode from 'vscode';
import { JobLogWindow, type JobLogSource } from '../../services/jobs/logWindow';
import { jobOfUri, type JobAddress } from './documents';

export const LOGS_SCHEME = 'mtrl-job-logs';
const FOLLOW_MS = 5000;

interface OpenLog {
  window: JobLogWindow;
  following?: ReturnType<typeof setInterval>;
  error?: string;
}

/** A job's service logs as a read-only document with "Load older" / "Load newer" CodeLens and a follow mode. */
export class JobLogsProvider implements vscode.TextDocumentContentProvider, vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly open = new Map<string, OpenLog>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly source: (job: JobAddress) => JobLogSource,
    private readonly explain: (error: unknown, action: string) => string,
  ) {
    // Stop following and forget the window once the document is closed.
    this.subscriptions = [
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme !== LOGS_SCHEME) return;
        const log = this.open.get(doc.uri.toString());
        if (log?.following) clearInterval(log.following);
        this.open.delete(doc.uri.toString());
      }),
      // Following keeps the newest line in sight, like `tail -f`.
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme !== LOGS_SCHEME || !this.open.get(e.document.uri.toString())?.following) return;
        const end = new vscode.Range(e.document.lineCount - 1, 0, e.document.lineCount - 1, 0);
        for (const editor of vscode.window.visibleTextEditors) if (editor.document === e.document) editor.revealRange(end);
      }),
    ];
  }

  private logOf(uri: vscode.Uri): OpenLog | undefined {
    const job = jobOfUri(uri);
    if (!job) return undefined;
    let log = this.open.get(uri.toString());
    if (!log) {
      log = { window: new JobLogWindow(this.source(job)) };
      this.open.set(uri.toString(), log);
    }
    return log;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const job = jobOfUri(uri);
    const log = this.logOf(uri);
    if (!job || !log) return `Not a job log address: ${uri.toString()}\n`;
    if (!log.window.loaded && !log.error) await this.run(log, () => log.window.load(), 'Reading the service logs');
    const header = `# ${job.jobName} · /aws/sagemaker/Job/${job.category} · ${log.window.lines.length} lines from ${log.window.streamCount} stream(s)${log.following ? ' · following' : ''}`;
    return log.error ? `${header}\n${log.error}\n` : log.window.render(header);
  }

  private async run(log: OpenLog, work: () => Promise<unknown>, action: string): Promise<void> {
    try {
      await work();
      log.error = undefined;
    } catch (error) {
      log.error = this.explain(error, action);
    }
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const log = this.open.get(doc.uri.toString());
    if (!log) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const bottom = new vscode.Range(doc.lineCount - 1, 0, doc.lineCount - 1, 0);
    const lenses = [
      new vscode.CodeLens(top, {
        title: log.following ? '$(debug-pause) Stop following' : '$(eye) Follow',
        command: 'mtrl.followJobLogs',
        arguments: [doc.uri],
      }),
    ];
    if (log.window.hasOlder)
      lenses.push(new vscode.CodeLens(top, { title: '$(arrow-up) Load older', command: 'mtrl.loadOlderJobLogs', arguments: [doc.uri] }));
    if (log.error)
      lenses.push(new vscode.CodeLens(top, { title: '$(refresh) Retry', command: 'mtrl.loadNewerJobLogs', arguments: [doc.uri] }));
    lenses.push(new vscode.CodeLens(bottom, { title: '$(arrow-down) Load newer', command: 'mtrl.loadNewerJobLogs', arguments: [doc.uri] }));
    return lenses;
  }

  async loadOlder(uri: vscode.Uri): Promise<void> {
    const log = this.logOf(uri);
    if (!log) return;
    await this.run(log, () => log.window.loadOlder(), 'Loading older log lines');
    this.redraw(uri);
  }

  async loadNewer(uri: vscode.Uri): Promise<void> {
    const log = this.logOf(uri);
    if (!log) return;
    await this.run(log, () => (log.window.loaded ? log.window.loadNewer() : log.window.load()), 'Loading newer log lines');
    this.redraw(uri);
  }

  toggleFollow(uri: vscode.Uri): boolean {
    const log = this.logOf(uri);
    if (!log) return false;
    if (log.following) {
      clearInterval(log.following);
      log.following = undefined;
    } else {
      log.following = setInterval(() => void this.loadNewer(uri), FOLLOW_MS);
      void this.loadNewer(uri);
    }
    this.redraw(uri);
    return log.following !== undefined;
  }

  private redraw(uri: vscode.Uri): void {
    this.changed.fire(uri);
    this.lensesChanged.fire();
  }

  dispose(): void {
    for (const log of this.open.values()) if (log.following) clearInterval(log.following);
    this.open.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
    this.lensesChanged.dispose();
  }
}
