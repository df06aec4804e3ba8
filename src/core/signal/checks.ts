import type { CostEstimate } from '../jobs/estimate';
import type { SignalTokens } from './projectedCost';
import type { SignalReport } from './report';

// A kept signal check as the launch review and the signal views read it; services/signal keeps them on disk.

/** What a signal check answers for: results are kept per dataset + runtime + reward version. */
export interface SignalCheckKey {
  /** An S3 URI or a local path. */
  dataset: string;
  /** An agent runtime ARN or a local entrypoint path. */
  runtime: string;
  /** A reward *version*: a Lambda ARN:version, or the sha256 of a local reward file's content. */
  reward: string;
}

/** One signal check as kept: the latest for its key. */
export interface KeptSignalCheck {
  key: SignalCheckKey;
  /** ISO time the check started. */
  at: string;
  route: 'cloud' | 'local';
  status: 'running' | 'done' | 'failed';
  jobName?: string;
  region?: string;
  groupSize: number;
  rows: number;
  report?: SignalReport;
  /** where the rollouts are, for the board: a job name or a local directory/file */
  rollouts?: string;
  error?: string;
  /** A cloud check's sampled rows (an S3 URI). */
  sample?: string;
  /** The cost estimate the launch was confirmed with. */
  estimate?: CostEstimate;
  /** Billable tokens of one rollout, as the check measured them. */
  tokensPerRollout?: SignalTokens;
  /** The planned training job's rollouts (steps × batch size × group size), when known. */
  plannedRollouts?: number;
  /** The planned training job's token cost from the measured tokens per rollout. */
  projectedCost?: CostEstimate & { rollouts: number };
}

export interface SignalChecks {
  latest(key: SignalCheckKey): Promise<KeptSignalCheck | undefined>;
  keep(check: KeptSignalCheck): Promise<void>;
  /** Every kept check, newest first. */
  list(): Promise<KeptSignalCheck[]>;
}
