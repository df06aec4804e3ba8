import { enrichTranscript } from '../environments/registry';
import type { Transcript } from '../transcript/model';
import { groupKeyOf, type TaskMatcher } from '../transcript/tasks';
import { assignSteps, type StepClock } from './steps';
import { DEFAULT_SUCCESS_THRESHOLD, isSolved } from './verdict';

/** What a job tells about its rollouts beyond the rollouts themselves. */
export interface JobContext {
  /** Reward at or above which a rollout counts as solved (the job's `success_threshold`); a pack's own verdict is shown beside. */
  successThreshold?: number;
  /** The job's training data: a rollout belongs to the row whose prompt its first message contains. */
  tasks?: TaskMatcher;
  /** Step ends: date rollouts whose source names no step. */
  clock?: StepClock;
}

/** Readies rollouts for the views: the pack's facts, the dataset row, the step, the GRPO group, solved. */
export function prepareTranscripts(
  transcripts: readonly Transcript[],
  job: JobContext = {},
  /** A pipeline's held keys (groupKeysHeld), so a group's key is built once across its batches. */
  keyOf: (t: Transcript) => string = groupKeyOf,
): Transcript[] {
  if (job.clock) assignSteps(transcripts, job.clock);
  const threshold = job.successThreshold ?? DEFAULT_SUCCESS_THRESHOLD;
  for (const t of transcripts) {
    if (!t.env) enrichTranscript(t);
    if (job.tasks && t.task.rowIndex === undefined) job.tasks.match(t.task);
    t.groupKey = keyOf(t);
    t.solved = isSolved(t.reward, threshold);
  }
  return transcripts as Transcript[];
}
