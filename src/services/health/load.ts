import type { AwsClients } from '../../aws/clients';
import { checkHealth, HEALTH_KEYS } from '../../core/health/check';
import type { HealthReport } from '../../core/health/findings';
import { healthInputOf } from '../../core/health/input';
import type { HealthThresholds } from '../../core/health/thresholds';
import type { JobDetails } from '../../core/jobs/job';
import type { JobRef } from '../../core/jobs/reference';
import type { ScanResult } from '../../core/scan/types';
import { loadJobMetrics, type JobMetrics } from '../metrics/load';

interface HealthOptions {
  thresholds?: HealthThresholds;
  signal?: AbortSignal;
  /** An already described job (the Jobs view has one): skips DescribeJob. */
  described?: JobDetails;
  /** When the job was asked about (default: when this call starts, before the slow reads). */
  now?: number;
  /** The scan of the job's rollouts (scanJobRollouts): a kind rising over its steps is a finding too. */
  scan?: ScanResult;
  /** Keys to load besides the checks' (a report draws its curves from the same read). */
  alsoKeys?: readonly string[];
}

/** A job's health: its run's HEALTH_KEYS histories read from MLflow, then every check; MetricsUnavailable/RunNotFound when there is no run. */
export async function loadJobHealth(
  aws: AwsClients,
  ref: Required<JobRef>,
  options: HealthOptions = {},
): Promise<{ metrics: JobMetrics; report: HealthReport }> {
  // "No new step for N s" counts from before the reads: a slow MLflow must not read as a stalled job.
  const asked = options.now ?? Date.now();
  const metrics = await loadJobMetrics(aws, ref, {
    keys: [...new Set([...HEALTH_KEYS, ...(options.alsoKeys ?? [])])],
    signal: options.signal,
    described: options.described,
  });
  const input = healthInputOf(metrics.job, metrics.series, asked);
  const report = checkHealth(options.scan ? { ...input, scan: options.scan } : input, options.thresholds);
  return { metrics, report };
}
