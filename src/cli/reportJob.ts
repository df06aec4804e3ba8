import { DEFAULT_PRICING } from '../core/jobs/pricing';
import type { HealthReport } from '../core/health/findings';
import { FIXED_CHART_KEYS, type JobCurves } from '../core/metrics/curves';
import { loadJobHealth } from '../services/health/load';
import { curvesOf } from '../services/metrics/curves';
import { awsFromOptions } from './awsOptions';
import type { CliIO } from './command';
import { jobFromArgument } from './jobArgument';
import { metricsMissing } from './metricsFailure';

interface JobValues {
  evaluation?: boolean;
  region?: string;
  endpoint?: string;
  profile?: string;
}

/** A job's curves (the metrics view's fixed charts) and health findings, from one read; a sentence instead when they cannot be read. */
export async function jobCurves(
  name: string,
  values: JobValues,
  io: CliIO,
): Promise<{ curves: JobCurves; health: HealthReport } | { problem: string }> {
  const ref = jobFromArgument(name, values);
  const { aws, settings } = awsFromOptions({ ...values, region: ref.region });
  try {
    const { metrics, report } = await loadJobHealth(aws, ref, { signal: io.signal, alsoKeys: FIXED_CHART_KEYS });
    const job = { name: ref.jobName, category: ref.category, region: ref.region };
    return { curves: curvesOf(job, metrics, DEFAULT_PRICING, new Date(), report), health: report };
  } catch (error) {
    return {
      problem: metricsMissing(error, { jobName: ref.jobName, profile: values.profile, endpoint: settings.endpoint, region: ref.region }),
    };
  } finally {
    aws.reset();
  }
}
