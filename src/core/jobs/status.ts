/** The job statuses of the SageMaker Jobs API and how the tree shows them. */
export const JOB_STATUSES = ['InProgress', 'Completed', 'Failed', 'Stopping', 'Stopped', 'Deleting', 'DeleteFailed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export type JobCategory = 'AgentRFT' | 'AgentRFTEvaluation';
export const JOB_CATEGORIES: readonly JobCategory[] = ['AgentRFT', 'AgentRFTEvaluation'];

export function isJobCategory(value: unknown): value is JobCategory {
  return (JOB_CATEGORIES as readonly unknown[]).includes(value);
}

/** "Training" / "Evaluation": the words the user sees for a category. */
export function categoryLabel(category: JobCategory): string {
  return category === 'AgentRFT' ? 'Training' : 'Evaluation';
}

/** A codicon id, a theme colour id and whether the icon spins: kept free of vscode so the CLI and tests share it. */
interface StatusIcon {
  codicon: string;
  color?: string;
  spin: boolean;
}

const ICONS: Record<JobStatus, StatusIcon> = {
  InProgress: { codicon: 'sync', color: 'charts.blue', spin: true },
  Completed: { codicon: 'pass-filled', color: 'testing.iconPassed', spin: false },
  Failed: { codicon: 'error', color: 'testing.iconFailed', spin: false },
  Stopping: { codicon: 'loading', color: 'charts.yellow', spin: true },
  Stopped: { codicon: 'circle-slash', color: 'disabledForeground', spin: false },
  Deleting: { codicon: 'loading', color: 'charts.yellow', spin: true },
  DeleteFailed: { codicon: 'warning', color: 'list.warningForeground', spin: false },
};

const UNKNOWN_ICON: StatusIcon = { codicon: 'question', spin: false };

export function statusIcon(status: string, secondaryStatus?: string): StatusIcon {
  // A job that hit its runtime limit reports Stopped or Failed; the secondary status says why.
  if (secondaryStatus === 'MaxRuntimeExceeded') return { codicon: 'watch', color: 'testing.iconFailed', spin: false };
  return isJobStatus(status) ? ICONS[status] : UNKNOWN_ICON;
}

function isJobStatus(value: string): value is JobStatus {
  return (JOB_STATUSES as readonly string[]).includes(value);
}

/** Statuses that still change on their own, so the tree polls them. */
export function isInProgress(status: string): boolean {
  return status === 'InProgress' || status === 'Stopping' || status === 'Deleting';
}

/** The statuses of a job that still holds its resources (its runtime is invoked, its role assumed): "in use" means one of these. */
export const HOLDING_STATUSES = ['InProgress', 'Stopping'] as const satisfies readonly JobStatus[];

/** Whether a job in this status holds its resources: the launch banner, the Resources view, cleanup and the pre-flight ask this. */
export function holdsResources(status: string): boolean {
  return (HOLDING_STATUSES as readonly string[]).includes(status);
}

/** Only a finished job may be deleted (the service refuses a running one). */
export function isFinished(status: string): boolean {
  return status === 'Completed' || status === 'Failed' || status === 'Stopped' || status === 'DeleteFailed';
}

/** Only a running job may be stopped. */
export function isStoppable(status: string): boolean {
  return status === 'InProgress';
}

/** `ServiceOutput.ProgressInfo`, in the shapes the service was seen to use (a real run also sends BatchSize with MaxSteps). */
export interface ProgressInfo {
  BatchSize?: number;
  MaxSteps?: number;
  CurrentStep?: number;
  MaxEpoch?: number;
  StepsPerEpoch?: number;
  CurrentEpoch?: number;
}

interface Progress {
  step: number;
  totalSteps?: number;
  epoch?: number;
  maxEpoch?: number;
}

/** Global step and total from ProgressInfo; undefined when the job has not reported any yet. */
export function progressOf(info: ProgressInfo | undefined): Progress | undefined {
  if (!info || typeof info.CurrentStep !== 'number') return undefined;
  // A restart can re-run steps: progress never reads past the plan.
  if (typeof info.MaxSteps === 'number') return { step: Math.min(info.CurrentStep, info.MaxSteps), totalSteps: info.MaxSteps };
  const perEpoch = info.StepsPerEpoch;
  if (typeof perEpoch === 'number' && perEpoch > 0) {
    const epoch = typeof info.CurrentEpoch === 'number' ? info.CurrentEpoch : undefined;
    // CurrentStep counts within the epoch (1-based epochs); a value past the epoch size is already global.
    const step =
      epoch !== undefined && epoch >= 1 && info.CurrentStep <= perEpoch ? (epoch - 1) * perEpoch + info.CurrentStep : info.CurrentStep;
    const totalSteps = typeof info.MaxEpoch === 'number' ? info.MaxEpoch * perEpoch : undefined;
    return { step: totalSteps !== undefined ? Math.min(step, totalSteps) : step, totalSteps, epoch, maxEpoch: info.MaxEpoch };
  }
  return { step: info.CurrentStep };
}

/** "step 42/100", "step 150/300 (epoch 2/3)" for the tooltip; the short form omits the epoch. */
export function progressText(info: ProgressInfo | undefined, withEpoch = false): string | undefined {
  const p = progressOf(info);
  if (!p) return undefined;
  const steps = p.totalSteps !== undefined ? `step ${p.step}/${p.totalSteps}` : `step ${p.step}`;
  if (!withEpoch || p.epoch === undefined) return steps;
  return `${steps} (epoch ${p.epoch}${p.maxEpoch !== undefined ? `/${p.maxEpoch}` : ''})`;
}
