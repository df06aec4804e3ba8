import * as vscode from 'vscode';
import { assignSteps, ReplayData, RolloutCollector, skippedLineNotes, type Rollout, type StepClock } from '../../core/rollouts';
import {
  REPLAY_VIEW,
  replayHandlers,
  type BoardSettings,
  type BoardState,
  type BoardView,
  type LoadStatus,
  type ReplayProtocol,
  type ReplaySource,
} from '../../shared/protocol';
import { feed, type LogReader } from '../../services/rolloutLogs';
import type { HostChannel } from '../../webview-kit/host';
import { showApp } from '../../webview-kit/panel';
import type { Services } from '../services';
import { readerFor } from './sources';
import { setting } from '../settings';

function boardSettings(): BoardSettings {
  return { colorBlind: setting('replay.colorBlind') };
}

function followSeconds(): number {
  return setting('replay.followSeconds');
}

/** One replay board: reads its source with progress and cancel, answers the page's requests, follows a running job. */
export class ReplayPanel implements vscode.Disposable {
  private static readonly open = new Set<ReplayPanel>();
  private static lastActive?: ReplayPanel;
  private readonly data = new ReplayData();
  private clock?: StepClock;
  private status: LoadStatus = { state: 'loading', message: 'Reading rollouts…' };
  private readonly channel: HostChannel<ReplayProtocol>;
  private loading?: AbortController;
  private followTimer?: ReturnType<typeof setTimeout>;
  private reader?: LogReader;
  private collector = new RolloutCollector();
  private readonly disposables: vscode.Disposable[] = [];
  /** What the page last reported it shows (read by `mtrl.getReplayView` for tests). */
  view?: BoardView;

  static get active(): ReplayPanel | undefined {
    return ReplayPanel.lastActive;
  }
  static each(action: (panel: ReplayPanel) => void): void {
    ReplayPanel.open.forEach(action);
  }

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly services: Services,
    readonly source: ReplaySource,
    public board?: BoardState,
  ) {
    ReplayPanel.open.add(this);
    ReplayPanel.lastActive = this;
    const initial = { source, status: this.status, settings: boardSettings(), board };
    this.channel = showApp<ReplayProtocol>(panel, services.context.extensionUri, REPLAY_VIEW, initial, {
      onUnknown: (_, why) => services.output.warn(`Replay: ignored a message from the board (${why})`),
    });
    this.channel.serve(replayHandlers(this.data));
    this.channel.onReady(() => this.channel.notify('status', this.status));
    this.channel.on('state', (state) => (this.board = state.board));
    this.channel.on('view', (view) => (this.view = view));
    this.channel.on('retry', () => void this.load());
    this.disposables.push(
      { dispose: () => this.channel.dispose() },
      panel.onDidChangeViewState(() => {
        if (panel.active) ReplayPanel.lastActive = this;
      }),
      panel.onDidDispose(() => this.dispose()),
    );
    void this.load();
  }

  private setStatus(status: LoadStatus): void {
    this.status = status;
    this.channel.notify('status', status);
  }

  applySettings(): void {
    this.channel.notify('settings', boardSettings());
  }

  /** Moves an open board to one step (the metrics view's click on a curve). */
  showStep(step: number): void {
    this.channel.notify('showSteps', { from: step, to: step });
  }

  /** Reads the whole source (again) with a cancellable progress notification; the board shows rollouts as they stream in. */
  async load(): Promise<void> {
    this.loading?.abort();
    clearTimeout(this.followTimer);
    const loading = new AbortController();
    this.loading = loading;
    this.collector = new RolloutCollector();
    this.data.clear();
    this.clock = undefined;
    this.setStatus({ state: 'loading', message: `Reading rollouts from ${this.source.label}…` });
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `MTRL: reading rollouts from ${this.source.label}`, cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => loading.abort());
          this.reader = await readerFor(this.services, this.source, loading.signal);
          this.clock = await this.reader.steps?.(loading.signal);
          let shown = 0;
          let read = 0;
          for await (const line of this.reader.read(loading.signal)) {
            feed(this.collector, line);
            // The first rollouts go to the board at once; after that, a refresh at most twice a second.
            if (++read % (this.data.size ? 256 : 32) === 0 && (this.data.size === 0 || Date.now() - shown > 500)) {
              if (!this.take(this.collector.take())) continue;
              shown = Date.now();
              progress.report({ message: `${this.collector.lines.toLocaleString()} lines, ${this.data.size.toLocaleString()} rollouts` });
              this.setStatus({ state: 'ready', rollouts: this.data.size, following: false, reading: true, notices: this.notices() });
            }
            loading.signal.throwIfAborted();
          }
        },
      );
      if (this.loading !== loading) return;
      this.take(this.collector.take());
      const following = await this.reader!.followable(loading.signal);
      if (!following) this.take(this.collector.finish());
      this.services.output.info(
        this.reader!.from === 'traces'
          ? `Replay: ${this.data.size} rollouts from the MLflow traces of ${this.source.label} (the job's log holds no rollout record)`
          : `Replay: ${this.data.size} rollouts from ${this.collector.lines} lines of ${this.source.label}`,
      );
      const notices = this.notices();
      if (notices) this.services.output.warn(`Replay: ${this.source.label}: ${notices.join(' ')}`);
      this.setStatus(
        this.data.size || following
          ? { state: 'ready', rollouts: this.data.size, following, notices }
          : { state: 'empty', message: emptyMessage(this.source), notices },
      );
      if (following) this.scheduleFollow();
    } catch (error) {
      if (this.loading !== loading) return;
      if (loading.signal.aborted) {
        this.take(this.collector.take());
        this.setStatus(
          this.data.size
            ? { state: 'ready', rollouts: this.data.size, following: false, notices: this.notices() }
            : { state: 'error', message: 'Reading was cancelled before any rollout was found.' },
        );
        return;
      }
      const message = this.explain(error);
      this.services.output.error(`Replay: ${message}`);
      this.setStatus({ state: 'error', message });
    }
  }

  /** Keeps the rollouts of this source, dated by the service log's steps where their records name none; returns how many. */
  private take(rollouts: Rollout[]): number {
    const kept = this.accepted(rollouts);
    if (this.clock) assignSteps(kept, this.clock);
    this.data.append(kept);
    return kept.length;
  }

  /** Sentences for what the reader left out, as `mtrl rollouts` prints them: "Line 2 (… characters) is longer than 64 M characters and was not read." */
  private notices(): string[] | undefined {
    const notes = skippedLineNotes(this.reader?.skipped ?? []);
    return notes.length ? notes.map((n) => `${n[0].toUpperCase()}${n.slice(1)}.`) : undefined;
  }

  private accepted(rollouts: Rollout[]): Rollout[] {
    return this.reader ? rollouts.filter((r) => this.reader!.accepts(r)) : rollouts;
  }

  private explain(error: unknown): string {
    const e = error as NodeJS.ErrnoException;
    if (this.source.kind === 'file')
      return e.code === 'ENOENT'
        ? `The log file ${this.source.label} no longer exists.`
        : `Could not read ${this.source.label}: ${e.message}`;
    if (e instanceof Error && !('$metadata' in e) && !e.name.endsWith('Exception') && e.name !== 'CredentialsProviderError')
      return e.message;
    const region = this.source.kind === 'job' || this.source.kind === 'logGroup' ? this.source.region : undefined;
    return this.services.explain(error, `Read the rollouts of ${this.source.label}`, region);
  }

  /** Follow mode: polls the log for new events while the job runs, appending the rollouts they complete. */
  private scheduleFollow(): void {
    this.followTimer = setTimeout(() => void this.follow(), followSeconds() * 1000);
  }

  private async follow(): Promise<void> {
    const loading = this.loading;
    if (!loading || loading.signal.aborted || !this.reader) return;
    try {
      for await (const line of this.reader.read(loading.signal)) feed(this.collector, line);
      const still = await this.reader.followable(loading.signal);
      // A running job ends steps as it goes: date new rollouts with the step lines logged since.
      if (this.clock) this.clock = await this.reader.steps?.(loading.signal);
      const added = this.take(still ? this.collector.take() : this.collector.finish());
      if (added || !still) this.setStatus({ state: 'ready', rollouts: this.data.size, following: still, notices: this.notices() });
      if (still) this.scheduleFollow();
    } catch (error) {
      if (loading.signal.aborted) return;
      this.services.output.warn(`Replay: following ${this.source.label} paused: ${this.explain(error)}`);
      this.scheduleFollow();
    }
  }

  dispose(): void {
    this.loading?.abort();
    clearTimeout(this.followTimer);
    ReplayPanel.open.delete(this);
    if (ReplayPanel.lastActive === this) ReplayPanel.lastActive = [...ReplayPanel.open].pop();
    vscode.Disposable.from(...this.disposables).dispose();
    this.disposables.length = 0;
  }
}

function emptyMessage(source: ReplaySource): string {
  const where = source.kind === 'file' ? `the file ${source.label}` : source.label;
  const traces = source.kind === 'job' ? ', the job has no MLflow traces,' : '';
  return `No rollouts in ${where}. The agent logs no rollout record${traces}: run "MTRL: Insert Rollout Logging" on its main.py, or check that the log holds UpdateReward or tool feedback lines.`;
}
