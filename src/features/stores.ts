import type * as vscode from 'vscode';
import type { SmokeRecord, SmokeResults } from '../core/smoke/record';
import type { SweepControl } from '../core/evaluation/queue';
import type { SweepAnswers } from '../services/sweeps';
import type { Budget } from '../core/jobs/budget';
import type { HealthFindingKind } from '../core/health/findings';
import type { EvaluationAnswers, TrainingAnswers } from '../services/launch/answers';

/** One key of globalState or workspaceState with its type: features read and write stored state only through these. */
export class StoredValue<T> {
  constructor(
    private readonly memento: vscode.Memento,
    readonly key: string,
  ) {}

  get(): T | undefined {
    return this.memento.get<T>(this.key);
  }

  async set(value: T): Promise<void> {
    await this.memento.update(this.key, value);
  }
}

/** Last smoke result per runtime ARN, in globalState so it survives windows and workspaces; the launch pre-flight reads it. */
export class SmokeResultStore {
  private readonly value: StoredValue<SmokeResults>;
  constructor(state: vscode.Memento) {
    this.value = new StoredValue(state, 'mtrl.smoke.results');
  }

  all(): SmokeResults {
    return this.value.get() ?? {};
  }

  get(runtimeArn: string): SmokeRecord | undefined {
    return this.all()[runtimeArn];
  }

  async remember(runtimeArn: string, record: SmokeRecord): Promise<void> {
    await this.value.set({ ...this.all(), [runtimeArn]: record });
  }
}

const RECENT_UPLOADS_KEPT = 10;

/** The workspace's dataset uploads, newest first: the upload command's default prefix and the wizards' dataset picks. */
class RecentUploads {
  private readonly uris: StoredValue<string[]>;
  private readonly prefix: StoredValue<string>;
  constructor(state: vscode.Memento) {
    this.uris = new StoredValue(state, 'mtrl.datasets.recentUploads');
    this.prefix = new StoredValue(state, 'mtrl.datasets.lastUploadPrefix');
  }

  list(): string[] {
    return this.uris.get() ?? [];
  }

  /** Where the last upload went (`s3://bucket/prefix/`). */
  lastPrefix(): string | undefined {
    return this.prefix.get();
  }

  async remember(uri: string): Promise<void> {
    await this.uris.set([uri, ...this.list().filter((u) => u !== uri)].slice(0, RECENT_UPLOADS_KEPT));
    await this.prefix.set(uri.replace(/[^/]*$/, ''));
  }
}

const BUDGETS_KEY = 'mtrl.budgets';

/** A job's budget and the budget last warned about (so the guard acts once per crossing). */
interface StoredBudget extends Budget {
  warnedAt?: number;
}

/** Budgets per job ARN, kept in the extension's global state: they survive reloads and apply in every window. */
export class BudgetStore {
  constructor(private readonly memento: vscode.Memento) {}

  get(arn: string): StoredBudget | undefined {
    return this.all()[arn];
  }

  async set(arn: string, budget: Budget): Promise<void> {
    await this.memento.update(BUDGETS_KEY, { ...this.all(), [arn]: { dollars: budget.dollars, autoStop: budget.autoStop } });
  }

  async warned(arn: string, dollars: number): Promise<void> {
    const current = this.get(arn);
    if (current) await this.memento.update(BUDGETS_KEY, { ...this.all(), [arn]: { ...current, warnedAt: dollars } });
  }

  private all(): Record<string, StoredBudget> {
    return this.memento.get<Record<string, StoredBudget>>(BUDGETS_KEY) ?? {};
  }
}

/** Everything the extension keeps between sessions, typed; built once in extension.ts. */
export interface Stores {
  smokeResults: SmokeResultStore;
  recentUploads: RecentUploads;
  /** The last answers of each launch wizard: the next run's defaults, per workspace. */
  trainingAnswers: StoredValue<TrainingAnswers>;
  evaluationAnswers: StoredValue<EvaluationAnswers>;
  /** "Don't Show Again" on the warning not to redeploy a runtime while its job runs. */
  redeployWarningOff: StoredValue<boolean>;
  /** Budgets per job ARN (the budget guard), across workspaces. */
  budgets: BudgetStore;
  /** Each started sweep file's state as the user set it (running, paused, cancelled); what ran is read from the service. */
  sweepControls: StoredValue<Record<string, SweepControl>>;
  /** The sweep wizard's last dataset, role, output path and base model. */
  sweepAnswers: StoredValue<SweepAnswers>;
  /** The health findings already notified, per job ARN: one notification per job and kind, across reloads and windows. */
  healthNotified: StoredValue<Record<string, HealthFindingKind[]>>;
}

export function createStores(context: { globalState: vscode.Memento; workspaceState: vscode.Memento }): Stores {
  return {
    smokeResults: new SmokeResultStore(context.globalState),
    recentUploads: new RecentUploads(context.workspaceState),
    trainingAnswers: new StoredValue(context.workspaceState, 'mtrl.launch.lastTraining'),
    evaluationAnswers: new StoredValue(context.workspaceState, 'mtrl.launch.lastEvaluation'),
    redeployWarningOff: new StoredValue(context.globalState, 'mtrl.launch.redeployWarningOff'),
    budgets: new BudgetStore(context.globalState),
    sweepControls: new StoredValue(context.workspaceState, 'mtrl.sweeps'),
    sweepAnswers: new StoredValue(context.globalState, 'mtrl.sweeps.lastAnswers'),
    healthNotified: new StoredValue(context.globalState, 'mtrl.health.notified'),
  };
}
