import * as vscode from 'vscode';
import { ReplayData, RolloutPipeline, skippedLineNotes } from '../../core/rollouts';
import { RolloutScan, scanSettingsFrom, type ScanResult } from '../../core/scan';
import type { Transcript } from '../../core/transcript/model';
import { unmatchedRowsNote } from '../../core/transcript/tasks';
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
import { explainIfAws } from '../../services/explainAws';
import { readSavedAt, streamRollouts, type RolloutReader } from '../../services/rollouts';
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
  // Each rollout is scanned as it arrives, with the settings of when the board opened: its findings filter and mark rows.
  private readonly scan = new RolloutScan(scanSettingsFrom(setting('scan.thresholds'), setting('scan.repeatedCalls')));
  private static lastActive?: ReplayPanel;
  // Saved transcripts streamed from a large local file are held as facts; their turns are read back when opened.
  private readonly data = new ReplayData([], (at) => readSavedAt(at, this.pipeline.job), this.scan);
  private status: LoadStatus = { state: 'loading', message: 'Reading rollouts…' };
  private readonly channel: HostChannel<ReplayProtocol>;
  private loading?: AbortController;
  private followTimer?: ReturnType<typeof setTimeout>;
  private reader?: RolloutReader;
  private pipeline = new RolloutPipeline();
  // Rollouts shown, and of them those matched to a row of the source's dataset.
  private readonly rowsMatched = { matched: 0, total: 0 };
  private readonly disposables: vscode.Disposable[] = [];
  /** What the page last reported it shows (read by the test hooks' probe, src/features/testHooks.ts). */
  view?: BoardView;
  /** Settles when the first read of the source ends (done, empty, failed or cancelled): the reward what-if waits for it. */
  readonly firstRead: Promise<void>;

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
    this.channel.serve(replayHandlers(this.data, this.scan));
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
    this.firstRead = this.load();
  }

  private setStatus(status: LoadStatus): void {
    this.status = status;
    this.channel.notify('status', status);
  }

  /** The rollout the board plays now, as a plain transcript. */
  async currentRollout(): Promise<Transcript | undefined> {
    return this.board?.rollout === undefined ? undefined : (await this.data.detail(this.board.rollout))?.transcript;
  }

  /** The rollout scan's findings over every rollout read so far. */
  findings(): ScanResult {
    return this.scan.result();
  }

  /** Every rollout read so far, whatever the filter shows. */
  get rolloutsRead(): number {
    return this.data.size;
  }

  /** The rollouts the board's filter shows (its steps, outcomes, rewards, search). */
  shownRollouts(): Promise<Transcript[]> {
    return this.data.shown(this.board?.filter ?? {});
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
    this.pipeline = new RolloutPipeline();
    this.data.clear();
    Object.assign(this.rowsMatched, { matched: 0, total: 0 });
    this.setStatus({ state: 'loading', message: `Reading rollouts from ${this.source.label}…` });
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `MTRL: reading rollouts from ${this.source.label}`, cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => loading.abort());
          const reader = await readerFor(this.services, this.source, loading.signal);
          this.reader = reader;
          this.pipeline = new RolloutPipeline((await reader.context?.(loading.signal)) ?? {}, (t) => reader.accepts(t));
          let shown = 0;
          // Rollouts become facts every 256 lines, so whole ones never pile up in the heap; the first go to the board
          // at once, after that it refreshes at most twice a second.
          for await (const batch of streamRollouts(reader, this.pipeline, loading.signal, () => (this.data.size ? 256 : 32))) {
            const first = this.data.size === 0;
            if (!this.take(batch) || !(first || Date.now() - shown > 500)) continue;
            shown = Date.now();
            progress.report({ message: `${this.pipeline.lines.toLocaleString()} lines, ${this.data.size.toLocaleString()} rollouts` });
            this.setStatus({ state: 'ready', rollouts: this.data.size, following: false, reading: true, notices: this.notices() });
          }
        },
      );
      if (this.loading !== loading) return;
      this.take(this.pipeline.take());
      const following = await this.reader!.followable(loading.signal);
      if (!following) this.take(this.pipeline.finish());
      this.services.output.info(
        this.reader!.from === 'traces'
          ? `Replay: ${this.data.size} rollouts from the MLflow traces of ${this.source.label} (the job's log holds no rollout record)`
          : `Replay: ${this.data.size} rollouts from ${this.pipeline.lines} lines of ${this.source.label}`,
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
        this.take(this.pipeline.take());
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

  /** Shows rollouts the pipeline readied; returns how many. */
  private take(rollouts: Transcript[]): number {
    this.data.append(rollouts, (t) => this.pipeline.savedAt(t));
    this.rowsMatched.total += rollouts.length;
    this.rowsMatched.matched += rollouts.filter((t) => t.task.rowIndex !== undefined).length;
    return rollouts.length;
  }

  /** Sentences for what the reader left out, as `mtrl rollouts` prints them: "Line 2 (… characters) is longer than 64 M characters and was not read." */
  private notices(): string[] | undefined {
    const notes = [
      ...skippedLineNotes([...(this.reader?.skipped ?? []), ...this.pipeline.tooDeepLines()]).map(
        (n) => `${n[0].toUpperCase()}${n.slice(1)}.`,
      ),
      ...(this.reader?.notes ?? []),
    ];
    const data = this.source.kind === 'file' ? this.source.data : undefined;
    const unmatched = data && unmatchedRowsNote(this.rowsMatched.matched, this.rowsMatched.total, vscode.Uri.parse(data).fsPath);
    if (unmatched) notes.push(`${unmatched}.`);
    return notes.length ? notes : undefined;
  }

  private explain(error: unknown): string {
    const e = error as NodeJS.ErrnoException;
    if (this.source.kind === 'file')
      return e.code === 'ENOENT'
        ? `The log file ${this.source.label} no longer exists.`
        : `Could not read ${this.source.label}: ${e.message}`;
    const region = this.source.kind === 'job' || this.source.kind === 'logGroup' ? this.source.region : undefined;
    return explainIfAws(this.services.explain, error, `Read the rollouts of ${this.source.label}`, region) ?? e.message;
  }

  /** Follow mode: polls the log for new events while the job runs, appending the rollouts they complete. */
  private scheduleFollow(): void {
    this.followTimer = setTimeout(() => void this.follow(), followSeconds() * 1000);
  }

  private async follow(): Promise<void> {
    const loading = this.loading;
    if (!loading || loading.signal.aborted || !this.reader) return;
    try {
      // No batch mid-read: what this poll completes is dated below, with the step ends the job tells now.
      for await (const early of streamRollouts(this.reader, this.pipeline, loading.signal, () => Infinity)) this.take(early);
      const still = await this.reader.followable(loading.signal);
      // A running job ends steps as it goes: date new rollouts with the step ends known since.
      const job = await this.reader.context?.(loading.signal);
      if (job) this.pipeline.job = job;
      const added = this.take(still ? this.pipeline.take() : this.pipeline.finish());
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
