import type { MlflowDetails } from '../metrics/mlflow';
import type { BillableTokenUsage } from './pricing';
import type { ProgressInfo } from './status';

/**
 * A checkpoint as DescribeJob reports it (`ServiceOutput.ResumableCheckpoint` / `ModelCheckpoint`). The guide names the
 * fields but publishes no shape: a model package ARN alone, or an object with the ARN and the step, are both read.
 */
export type CheckpointReport = string | { ModelPackageArn?: string; Arn?: string; Step?: number; StepNumber?: number };

interface RolloutInfo {
  Total?: number;
  Completed?: number;
}

/** What the service adds to the config document of a running or finished job (every field may be absent early). */
export interface ServiceOutput {
  OutputModelPackageArn?: string;
  MlflowDetails?: MlflowDetails;
  BillableTokenUsage?: BillableTokenUsage;
  ProgressInfo?: ProgressInfo;
  RolloutInfo?: RolloutInfo;
  /** An evaluation's metrics by name; the shape is unpublished, so readers keep only flat name → number entries. */
  EvaluationMetrics?: Record<string, unknown>;
  /** The last step's full training state: given as InputModelPackageArn, a new job resumes at the next step. */
  ResumableCheckpoint?: CheckpointReport;
  /** The last step's adapter (a stopped or failed job's is promoted to the output group, best effort). */
  ModelCheckpoint?: CheckpointReport;
}
