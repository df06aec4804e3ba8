/** The timer functions the poller uses, injected so tests drive time themselves. */
export interface Timer {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

interface PollTarget {
  /** Whether any job still changes on its own. */
  hasInProgress(): boolean;
  /** Refreshes the running jobs; rejects when the service could not be reached. */
  poll(): Promise<void>;
}

const MAX_BACKOFF_MS = 10 * 60_000;

/** Polls in-progress jobs every interval while the view is visible; doubles the wait after each error; idles when nothing runs. */
export class JobsPoller {
  private handle: unknown;
  private visible = false;
  private failures = 0;
  private running = false;
  private disposed = false;
  private held = false;

  constructor(
    private readonly target: PollTarget,
    private intervalMs: number,
    private readonly timer: Timer = globalThis,
  ) {}

  get scheduled(): boolean {
    return this.handle !== undefined;
  }

  /** The wait before the next poll: the interval, doubled per consecutive failure, capped at ten minutes. */
  get delayMs(): number {
    return Math.min(this.intervalMs * 2 ** this.failures, Math.max(MAX_BACKOFF_MS, this.intervalMs));
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    this.reschedule();
  }

  /** Holds polling (the UI checks' known start) until released. */
  hold(held: boolean): void {
    this.held = held;
    this.reschedule();
  }

  setInterval(ms: number): void {
    this.intervalMs = ms;
    this.cancel();
    this.reschedule();
  }

  /** Call after the tree loaded or changed jobs: starts polling when something is running. */
  reschedule(): void {
    if (this.disposed || this.running) return;
    if (this.held || !this.visible || !this.target.hasInProgress() || this.intervalMs <= 0) {
      this.cancel();
      return;
    }
    if (this.handle === undefined) this.handle = this.timer.setTimeout(() => void this.tick(), this.delayMs);
  }

  private async tick(): Promise<void> {
    this.handle = undefined;
    this.running = true;
    try {
      await this.target.poll();
      this.failures = 0;
    } catch {
      this.failures++;
    } finally {
      this.running = false;
    }
    this.reschedule();
  }

  private cancel(): void {
    if (this.handle !== undefined) this.timer.clearTimeout(this.handle);
    this.handle = undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
  }
}
