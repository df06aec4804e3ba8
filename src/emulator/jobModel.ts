import type { JobConfigDocument } from '../core/jobs/document';
import type { BillableTokenUsage } from '../core/jobs/pricing';
import type { JobCategory, JobStatus, ProgressInfo } from '../core/jobs/status';
import type { HealthKind } from '../core/health/findings';
import type { DatasetRow } from './answers';
import type { EnvironmentName } from './episode';

// The emulated job's shapes, apart from the code that moves it through time (jobs.ts, recordedJob.ts) so both can reach them.

export type Secondary =
  'Starting' | 'Downloading' | 'Training' | 'Evaluating' | 'Uploading' | 'Completed' | 'Failed' | 'Stopping' | 'Stopped';

/** How a job unfolds, fixed at creation: phase lengths in real milliseconds (already divided by --speed), rollouts, and an optional failure. */
export interface JobPlan {
  startingMs: number;
  downloadingMs: number;
  stepMs: number;
  /** Steps this job runs (after its resume step, if any). */
  steps: number;
  /** The step of the checkpoint it resumed from: its first step is firstStep + 1 (absent: 0, a fresh start). */
  firstStep?: number;
  rolloutsPerStep: number;
  /** Tasks (rows) per step and rollouts per task: rollout k of a step plays row ⌊k / groupSize⌋ of the step's batch. */
  batchSize: number;
  groupSize: number;
  stepsPerEpoch: number;
  maxEpochs: number;
  /** True when max_steps (not the epochs) ends training: ProgressInfo then uses the MaxSteps form. */
  limitedBySteps: boolean;
  uploadingMs: number;
  stoppingMs: number;
  rows: DatasetRow[];
  /** The game the job's agent plays. */
  environment: EnvironmentName;
  /** The scripted policy's skill at a step (0–1). */
  skill: (step: number) => number;
  failure?: { afterMs: number; reason: string };
  /** A stall: no rollout finishes for `ms` after step `afterStep` (the seeded stalled job), then the run goes on. */
  pause?: { afterStep: number; ms: number };
}

export interface Job {
  name: string;
  category: JobCategory;
  arn: string;
  roleArn: string;
  schemaVersion: string;
  /** The document as submitted (ServiceOutput is added on describe). */
  document: JobConfigDocument;
  created: number;
  tags: { Key: string; Value: string }[];
  plan: JobPlan;
  runtimeId?: string;
  region: string;
  /** The emulator's --seed: rollouts are seeded by it, the job ARN and the rollout index. */
  seed: string;
  stoppedAt?: number;
  /** Replays a real run's status messages instead of following the plan. */
  recorded?: RecordedHistory;
  /** Bends the logged metrics into a way runs go wrong from a known step (the seeded health jobs). */
  pattern?: { kind: HealthKind; step: number };
}

export interface Transition {
  Status: Secondary;
  StartTime: number;
  EndTime?: number;
  StatusMessage?: string;
}

export interface JobState {
  status: JobStatus;
  secondary: Secondary;
  transitions: Transition[];
  lastModified: number;
  endTime?: number;
  failureReason?: string;
  /** Rollouts finished so far (each has written its record). */
  completedRollouts: number;
  totalRollouts: number;
  /** When rollouts started (the Training / Evaluating phase), for log timestamps. */
  rolloutStart: number;
}

/**
 * A job that replays the status messages a real run showed instead of following its plan: waiting for capacity,
 * the step phase, a restart that re-runs rollouts (so RolloutInfo.Completed exceeds the plan).
 */
export interface RecordedHistory {
  transitions: { Status: JobState['secondary']; afterMs: number; StatusMessage: string }[];
  /** When the job completed, after its creation; absent while it is still in its last transition. */
  completedAfterMs?: number;
  progress: ProgressInfo;
  rollouts: { Total: number; Completed: number };
  tokens: BillableTokenUsage;
}
