import type { JobFile } from './jobfile';
import { progressOf } from './status';
import type { CheckpointReport, ServiceOutput } from './serviceOutput';

/** Where a stopped or failed training job can go on from: its last resumable checkpoint and the step it saved. */
export interface ResumePoint {
  checkpointArn: string;
  /** The last finished step the checkpoint holds; the resumed job starts at step + 1. */
  step: number;
  /** The job's planned steps, when its progress said so. */
  totalSteps?: number;
  /** The adapter of that step, for evaluation or deployment (promoted on a best-effort basis). */
  modelCheckpointArn?: string;
}

/** Tags a resumed job carries (sent with CreateJob, so the job says where it came from in every view). */
export const RESUMED_FROM_TAG = 'mtrl:resumed-from';
export const RESUME_STEP_TAG = 'mtrl:resume-step';

function arnOf(report: CheckpointReport | undefined): string | undefined {
  if (typeof report === 'string') return report || undefined;
  return report?.ModelPackageArn ?? report?.Arn;
}

function stepOf(report: CheckpointReport | undefined): number | undefined {
  if (!report || typeof report === 'string') return undefined;
  const step = report.Step ?? report.StepNumber;
  return typeof step === 'number' && Number.isInteger(step) && step >= 0 ? step : undefined;
}

/** Only a training job that ended without finishing can be resumed (a completed one has nothing left; evaluations keep no checkpoint). */
export function canResume(category: string, status: string): boolean {
  return category === 'AgentRFT' && (status === 'Stopped' || status === 'Failed');
}

/** Why a job without a readable JobConfigDocument (optional in DescribeJob's model) shows no checkpoint: the model has no checkpoint member besides it. */
export const NO_DOCUMENT =
  'DescribeJob returned no readable JobConfigDocument (the service model makes it optional), so its checkpoints cannot be read.';

/** The resume point of a job's service output, or why there is none (a sentence). */
export function resumePointOf(
  category: string,
  status: string,
  output: ServiceOutput | undefined,
  documentRead = true,
): { point: ResumePoint } | { problem: string } {
  if (!canResume(category, status))
    return {
      problem:
        category === 'AgentRFT'
          ? `The job is ${status}; only a stopped or failed training job is resumed (Launch Similar starts afresh).`
          : 'An evaluation keeps no checkpoint; launch it again with Launch Similar.',
    };
  if (!documentRead) return { problem: NO_DOCUMENT };
  const checkpointArn = arnOf(output?.ResumableCheckpoint);
  if (!checkpointArn) return { problem: 'The job reports no resumable checkpoint (it stopped before its first step finished).' };
  const progress = progressOf(output?.ProgressInfo);
  const step = stepOf(output?.ResumableCheckpoint) ?? progress?.step;
  if (step === undefined) return { problem: 'The job reports a checkpoint but not the step it holds.' };
  const modelCheckpointArn = arnOf(output?.ModelCheckpoint);
  return { point: { checkpointArn, step, totalSteps: progress?.totalSteps, ...(modelCheckpointArn && { modelCheckpointArn }) } };
}

/**
 * The job that resumes `original` from `point`: the same document (base model, LoRA, hyperparameters, data) with the
 * checkpoint as InputModelPackageArn. max_steps stays the original plan: the service counts steps from the checkpoint.
 */
export function resumeJobFile(original: JobFile, point: ResumePoint, name: string): JobFile {
  const document = original.JobConfigDocument;
  const tags = (original.Tags ?? []).filter((t) => t.Key !== RESUMED_FROM_TAG && t.Key !== RESUME_STEP_TAG);
  return {
    ...original,
    JobName: name,
    JobConfigDocument: {
      ...document,
      ModelPackageConfig: { ...document.ModelPackageConfig, InputModelPackageArn: point.checkpointArn },
    },
    Tags: [...tags, { Key: RESUMED_FROM_TAG, Value: original.JobName }, { Key: RESUME_STEP_TAG, Value: String(point.step) }],
  };
}

/** The step a job file resumes after (its resume tag), or undefined for a fresh start. */
export function resumeStepOf(job: Pick<JobFile, 'Tags' | 'JobCategory'>): number | undefined {
  if (job.JobCategory !== 'AgentRFT') return undefined;
  const value = job.Tags?.find((t) => t.Key === RESUME_STEP_TAG)?.Value;
  const step = value === undefined ? NaN : Number(value);
  return Number.isInteger(step) && step >= 0 ? step : undefined;
}

const candidate = (name: string, n: number) => (n < 2 ? name : `${name.slice(0, 62 - String(n).length)}-${n}`);

/** "wordle-grpo-resume-4", or the next free variant of it: the resumed job's name (at most 63 characters). */
export function resumeJobName(original: string, step: number, taken: ReadonlySet<string>): string {
  const suffix = `-resume-${step}`;
  const name = `${original.replace(/-resume-\d+(-\d+)?$/, '').slice(0, 63 - suffix.length)}${suffix}`;
  for (let n = 1; ; n++) if (!taken.has(candidate(name, n))) return candidate(name, n);
}

/** "Resume from Step 4": the menu's and the lens's words (the checkpoint holds step 4; the job goes on at step 5). */
export function resumeTitle(point: Pick<ResumePoint, 'step'>): string {
  return `Resume from Step ${point.step}`;
}
