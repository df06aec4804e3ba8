import { describeMlflowError } from '../aws/mlflow/errors';
import { MetricsUnavailable } from '../services/metrics/load';
import { RunNotFound } from '../services/metrics/load';
import { UsageError } from './command';

/** Where a job's metrics were read from, for the sentence of a failed read. */
export interface MetricsReadContext {
  jobName: string;
  profile?: string;
  endpoint?: string;
  region: string;
}

/**
 * A failed read of a job's MLflow metrics (`mtrl metrics`, `mtrl health`): the sentence when the run or its metrics are
 * missing (each command exits its own way), else the MLflow error as a usage error naming profile, endpoint and region.
 */
export function metricsMissing(error: unknown, context: MetricsReadContext): string {
  if (error instanceof MetricsUnavailable || error instanceof RunNotFound) return error.message;
  const { jobName, ...where } = context;
  throw new UsageError(describeMlflowError(error, { ...where, action: `Reading the metrics of ${jobName}` }));
}
