import * as vscode from 'vscode';
import type { SignalCheckShown } from '../../core/signal/reportView';
import { SIGNAL_VIEW, type InitialSignal, type SignalProtocol, type SignalSource, type SignalState } from '../../shared/signal';
import type { HostChannel } from '../../webview-kit/host';
import { showApp } from '../../webview-kit/panel';
import type { Services } from '../services';
import type { LoadedSignal } from './sources';

/** How a panel reads its source (a file, a job, a kept check): given by the commands so the panel stays one shape. */
export type SignalLoader = (source: SignalSource, signal: AbortSignal) => Promise<LoadedSignal>;

/** The focused replay board's first read, given by index.ts: this panel loads apart (dist/signal.js) and must not keep a board registry of its own. */
export type BoardRead = () => Promise<void> | undefined;

/** One learning-signal report: loads its source with a cancellable progress, and opens its rollouts on the board. */
export class SignalPanel implements vscode.Disposable {
  private static readonly open = new Set<SignalPanel>();
  private readonly channel: HostChannel<SignalProtocol>;
  private state: SignalState;
  private loaded?: LoadedSignal;
  private loading?: AbortController;
  private timer?: ReturnType<typeof setTimeout>;
  private readonly disposables: vscode.Disposable[] = [];
  /** What the page last reported drawing (read by the test hooks' probe, src/features/testHooks.ts). */
  drawn?: SignalProtocol['toHost']['drawn'];

  static find(source: SignalSource): SignalPanel | undefined {
    const key = JSON.stringify({ ...source, label: '' });
    return [...SignalPanel.open].find((p) => JSON.stringify({ ...p.source, label: '' }) === key);
  }

  /** The panel in front, else the last one opened. */
  static get current(): SignalPanel | undefined {
    const all = [...SignalPanel.open];
    return all.find((p) => p.panel.active) ?? all.pop();
  }

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly services: Services,
    readonly source: SignalSource,
    private readonly load: SignalLoader,
    private readonly boardRead: BoardRead,
    /** A report already read (the command read it to say what it found): shown at once. */
    given?: LoadedSignal,
  ) {
    SignalPanel.open.add(this);
    this.loaded = given;
    // Until the first read ends the page says it is reading (loading), whatever this placeholder's status.
    const shown: SignalCheckShown = given?.shown ?? { title: source.label, status: 'running', hasRollouts: false };
    this.state = { loading: !given, shown };
    const initial: InitialSignal = { ...this.state, source };
    this.channel = showApp<SignalProtocol>(panel, services.context.extensionUri, SIGNAL_VIEW, initial, {
      onUnknown: (_, why) => services.output.warn(`Learning signal: ignored a message from the view (${why})`),
    });
    this.channel.onReady(() => this.post());
    this.channel.on('refresh', () => void this.reload());
    this.channel.on('openRollouts', () => void this.openRollouts());
    this.channel.on('tryReward', () => void this.tryReward());
    this.channel.on('drawn', (drawn) => (this.drawn = drawn));
    this.disposables.push(
      { dispose: () => this.channel.dispose() },
      panel.onDidChangeViewState(() => this.schedule()),
      panel.onDidDispose(() => this.dispose()),
    );
    if (given) this.schedule();
    else void this.reload();
  }

  /** The check as last read (and its rollouts' place), for Export Report…; none before the first read ends. */
  get check(): LoadedSignal | undefined {
    return this.loaded;
  }

  /** Reads the source again under a cancellable progress notification (`quiet`: in the status bar, for the polling of a running check). */
  async reload(quiet = false): Promise<void> {
    this.loading?.abort();
    const loading = (this.loading = new AbortController());
    this.state = { ...this.state, loading: true };
    this.post();
    const loaded = await vscode.window.withProgress(
      {
        location: quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
        title: `MTRL: learning signal of ${this.source.label}`,
        cancellable: !quiet,
      },
      async (_progress, token) => {
        token.onCancellationRequested(() => loading.abort());
        return this.load(this.source, loading.signal).catch((error: unknown): LoadedSignal => ({
          shown: {
            title: this.source.label,
            status: 'failed',
            error: loading.signal.aborted ? 'Cancelled before the rollouts were read.' : String((error as Error)?.message ?? error),
            hasRollouts: false,
          },
        }));
      },
    );
    if (this.loading !== loading) return;
    this.loaded = loaded;
    this.state = { loading: false, shown: loaded.shown };
    this.post();
    this.schedule();
  }

  /** A running check is asked again every mtrl.jobs.refreshSeconds while its report is visible, as the Jobs view polls. */
  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.panel.visible || this.state.loading || this.state.shown.status !== 'running') return;
    this.timer = setTimeout(() => void this.reload(true), this.services.settings.get('jobs.refreshSeconds') * 1000);
  }

  /** The replay board with this check's rollouts (a file, a folder or the job); resolves once the board has read them. */
  private async openRollouts(): Promise<boolean> {
    const target = this.loaded?.rollouts;
    if (!target) {
      void vscode.window.showInformationMessage('This check has no rollouts to open: it kept only its report.');
      return false;
    }
    await vscode.commands.executeCommand('mtrl.openRollouts', target);
    return true;
  }

  /** The reward what-if: the board with these rollouts, then re-scoring what it shows with a reward scenario file. */
  private async tryReward(): Promise<void> {
    if (!(await this.openRollouts())) return;
    await this.boardRead();
    await vscode.commands.executeCommand('mtrl.rescoreShownRollouts');
  }

  private post(): void {
    this.channel.notify('state', this.state);
  }

  dispose(): void {
    this.loading?.abort();
    // A read still under way sees the panel closed and posts nothing more.
    this.loading = undefined;
    clearTimeout(this.timer);
    SignalPanel.open.delete(this);
    vscode.Disposable.from(...this.disposables).dispose();
    this.disposables.length = 0;
  }
}
