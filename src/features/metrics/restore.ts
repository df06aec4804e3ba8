import { isJobRef, parseJobArgument } from '../../core/jobs/reference';
import type { MetricsJob, PersistedMetrics } from '../../shared/metrics';

/** A job from a Jobs-view node, `{jobName, category, region}` (tooltip links, other commands) or a job ARN. */
export function jobOf(arg: unknown, region: string): MetricsJob | undefined {
  const job = parseJobArgument(arg);
  return isJobRef(job) ? { name: job.jobName, category: job.category, region: job.region ?? region } : undefined;
}

/**
 * What a metrics view saved before a window reload, read as untrusted input (an older version may have saved it):
 * the jobs that can be named again, the averaging window within 1–100 steps, the extra metric keys that are text.
 * Undefined when no job can be: the panel then closes rather than show an empty view.
 */
export function restoredMetrics(state: Partial<PersistedMetrics> | undefined, region: string): PersistedMetrics | undefined {
  const jobs = (Array.isArray(state?.jobs) ? state.jobs : [])
    .map((j) => jobOf({ jobName: j?.name, category: j?.category, region: j?.region }, region))
    .filter((j): j is MetricsJob => j !== undefined);
  if (!jobs.length) return undefined;
  const window = typeof state?.window === 'number' ? Math.max(1, Math.min(100, Math.round(state.window))) : 10;
  const extraKeys = Array.isArray(state?.extraKeys) ? state.extraKeys.filter((k) => typeof k === 'string') : [];
  return { jobs, window, extraKeys };
}
