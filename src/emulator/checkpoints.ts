import type { JobConfigDocument } from '../core/jobs/document';
import type { ServiceOutput } from '../core/jobs/serviceOutput';
import type { JobCategory } from '../core/jobs/status';
import type { Job, JobState } from './jobModel';
import { ServiceError } from './protocol';

// Every finished step leaves a resumable checkpoint; the emulator names it by job and step so CreateJob can find it again.
const CHECKPOINT = /:model-package\/(.+)-checkpoints\/(\d+)$/;

function packageArn(job: Job, group: string, version: number): string {
  return `arn:aws:sagemaker:${job.region}:${job.arn.split(':')[4]}:model-package/${group}/${version}`;
}

/** The global step a job has finished by now: the step it resumed from plus the steps it ran. */
export function finishedStep(job: Job, state: JobState): number {
  return (job.plan.firstStep ?? 0) + Math.floor(state.completedRollouts / job.plan.rolloutsPerStep);
}

/** ResumableCheckpoint and ModelCheckpoint of a training job that has finished a step (the guide's fields; their shape is the emulator's guess). */
export function checkpointsOf(job: Job, state: JobState): Pick<ServiceOutput, 'ResumableCheckpoint' | 'ModelCheckpoint'> {
  if (job.category !== 'AgentRFT' || job.recorded) return {};
  const step = finishedStep(job, state);
  if (step < 1) return {};
  return {
    ResumableCheckpoint: { ModelPackageArn: packageArn(job, `${job.name}-checkpoints`, step), Step: step },
    ModelCheckpoint: { ModelPackageArn: packageArn(job, `${job.name}-adapter-checkpoints`, step), Step: step },
  };
}

/** The step a new training job resumes after, when its InputModelPackageArn is one of this account's resumable checkpoints. */
export function resumeStepOf(
  trainingJob: (name: string, region: string) => Job | undefined,
  c: JobCategory,
  document: JobConfigDocument,
  region: string,
  now: number,
  reached: (job: Job) => number,
): number | undefined {
  const arn = document.ModelPackageConfig?.InputModelPackageArn;
  const match = arn ? CHECKPOINT.exec(arn) : null;
  if (c !== 'AgentRFT' || !arn || !match) return undefined;
  const source = trainingJob(match[1], region);
  const step = Number(match[2]);
  if (!source || source.created > now || reached(source) < step)
    throw new ServiceError('ValidationException', `Model package ${arn} does not exist.`);
  const base = document.TrainingConfig?.BaseModelArn;
  if (base !== source.document.TrainingConfig?.BaseModelArn)
    throw new ServiceError(
      'ValidationException',
      `The checkpoint ${arn} was trained from ${source.document.TrainingConfig?.BaseModelArn}; the job names ${base}. A resumed job keeps its base model.`,
    );
  return step;
}
