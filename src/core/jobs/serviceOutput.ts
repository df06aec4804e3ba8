import type { MlflowDetails } from '../metrics/mlflow';
import type { CheckpointReport } from './checkpoint';
import type { BillableTokenUsage } from './pricing';
import type { ProgressInfo } from './status';

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
