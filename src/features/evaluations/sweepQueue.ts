import * as vscode from 'vscode';
import type { SweepControl } from '../../core/evaluation/queue';
import { parseSweep, type Sweep } from '../../core/evaluation/sweep';
import type { PricingTable } from '../../core/jobs/pricing';
import { advanceSweep, readSweepState, sweepCost, type SweepState } from '../../services/sweeps';
import type { Services } from '../services';

const TICK_MS = 30_000;

/** A sweep the queue knows: its file, the user's say, and what the service said last. */
export interface TrackedSweep {
  uri: vscode.Uri;
  control: SweepControl;
  sweep?: Sweep;
  state?: SweepState;
  /** The last problem, as a sentence: an unreadable file, an AWS error, an adapter not ready. */
  problem?: string;
}

/**
 * Launches each started sweep's runs one at a time. Only the user's pause/cancel is stored (workspace state); what ran is
 * read from the service on every turn, so a reload or a restart resumes where the sweep stands and never launches twice.
 */
export class SweepQueue implements vscode.Disposable {
  private readonly sweeps = new Map<string, TrackedSweep>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private timer?: ReturnType<typeof setTimeout>;
  /** Turns run one after another: a turn asked for during another runs after it. */
  private turns = Promise.resolve();
  /** Set by the UI checks' reset: no tick of its own disturbs a check; a start still takes its turn. */
  private ticksPaused = false;

  constructor(
    private readonly services: Services,
    private readonly explain: (error: unknown, action: string) => string,
    private readonly pricing: () => PricingTable,
  ) {
    const stored = services.stores.sweepControls.get() ?? {};
    for (const [uri, control] of Object.entries(stored)) this.sweeps.set(uri, { uri: vscode.Uri.parse(uri), control });
    if (this.sweeps.size) this.schedule(0);
  }

  list(): TrackedSweep[] {
    return [...this.sweeps.values()];
  }

  get(uri: vscode.Uri): TrackedSweep | undefined {
    return this.sweeps.get(uri.toString());
  }

  /** Starts or resumes a sweep and takes one turn at once: the first evaluation launches now, not in 30 s. */
  async start(uri: vscode.Uri): Promise<TrackedSweep | undefined> {
    await this.setControl(uri, 'running');
    await this.turn();
    return this.get(uri);
  }

  async pause(uri: vscode.Uri): Promise<void> {
    await this.setControl(uri, 'paused');
  }

  /** Stops the sweep's running evaluation (after a confirmation by the caller) and launches nothing more. */
  async cancel(uri: vscode.Uri, stopRunning: (jobName: string, region: string) => Promise<void>): Promise<void> {
    const tracked = await this.refresh(uri);
    await this.setControl(uri, 'cancelled');
    const running = tracked?.state?.runs.find((r) => tracked.state?.jobs.get(r.jobName)?.status === 'InProgress');
    if (running && tracked?.sweep) await stopRunning(running.jobName, tracked.sweep.region);
  }

  /** Forgets a sweep (its jobs stay in the account); the view drops it at once, even while a turn reads it. */
  async remove(uri: vscode.Uri): Promise<void> {
    this.sweeps.delete(uri.toString());
    this.changed.fire();
    await this.save();
  }

  /** The UI checks' known start: no sweep tracked and no tick until a sweep is started. */
  async resetForTests(): Promise<void> {
    this.ticksPaused = true;
    if (this.timer) clearTimeout(this.timer);
    await this.turns;
    this.sweeps.clear();
    this.changed.fire();
    await this.save();
  }

  /** Reads the file and the service now, without launching anything. */
  async refresh(uri: vscode.Uri): Promise<TrackedSweep | undefined> {
    const tracked = this.sweeps.get(uri.toString()) ?? { uri, control: 'paused' as const };
    await this.read(tracked, false);
    this.changed.fire();
    return tracked;
  }

  private async setControl(uri: vscode.Uri, control: SweepControl): Promise<void> {
    const tracked = this.sweeps.get(uri.toString()) ?? { uri, control };
    tracked.control = control;
    this.sweeps.set(uri.toString(), tracked);
    await this.save();
    this.changed.fire();
  }

  private async save(): Promise<void> {
    await this.services.stores.sweepControls.set(Object.fromEntries([...this.sweeps].map(([uri, t]) => [uri, t.control])));
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    if (!this.ticksPaused) this.timer = setTimeout(() => void this.turn(), ms);
  }

  private turn(): Promise<void> {
    this.turns = this.turns.then(async () => {
      try {
        // A sweep removed while the turn reads another is not read (nor launched) any more.
        for (const tracked of [...this.sweeps.values()]) {
          if (this.sweeps.get(tracked.uri.toString()) === tracked) await this.read(tracked, tracked.control === 'running');
        }
      } finally {
        this.changed.fire();
        if (this.sweeps.size) this.schedule(TICK_MS);
      }
    });
    // A failed turn must not stop the ones after it.
    const done = this.turns;
    this.turns = done.catch((error) => this.services.output.error(`Sweep turn: ${String(error)}`));
    return done;
  }

  private async read(tracked: TrackedSweep, launch: boolean): Promise<void> {
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(tracked.uri));
    } catch {
      tracked.problem = `${vscode.workspace.asRelativePath(tracked.uri)} cannot be read; it was moved or deleted.`;
      return;
    }
    const parsed = parseSweep(text);
    if (!parsed.sweep) {
      tracked.problem = `The sweep file has problems: ${parsed.problems.map((p) => p.message).join(' ')}`;
      return;
    }
    tracked.sweep = parsed.sweep;
    try {
      if (launch) {
        const result = await advanceSweep(this.services.aws, parsed.sweep, tracked.control);
        tracked.state = result.state;
        if (result.launched) this.services.output.info(`Sweep ${parsed.sweep.name}: launched ${result.launched}`);
        if (result.decision.kind === 'done' && tracked.control === 'running') {
          void vscode.window
            .showInformationMessage(
              `Sweep ${parsed.sweep.name} is done: ${result.state.progress.done} of ${result.state.progress.total} evaluations completed.`,
              'Compare',
            )
            .then((pick) => {
              if (pick) void vscode.commands.executeCommand('mtrl.compareSweep', tracked.uri);
            });
          tracked.control = 'paused';
          await this.save();
        }
      } else {
        tracked.state = await readSweepState(this.services.aws, parsed.sweep);
      }
      tracked.state.cost = await sweepCost(this.services.aws, parsed.sweep, tracked.state, this.pricing());
      tracked.problem = undefined;
    } catch (error) {
      tracked.problem = this.explain(error, `Sweep ${parsed.sweep.name}`);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.changed.dispose();
  }
}
