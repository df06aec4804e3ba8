import { serviceOutput } from './jobs';
import type { Job, JobState } from './jobModel';
import { evaluationMetrics } from './rollouts';

/** Epoch milliseconds as the JSON 1.1 protocol's timestamps (seconds). */
export const seconds = (ms: number | undefined) => (ms === undefined ? undefined : ms / 1000);

/** Metrics of finished evaluations: they never change, and computing them replays every rollout. */
const metricsOf = new WeakMap<Job, Record<string, number>>();

/** DescribeJob's answer: the document with its service output, status and transitions. */
export function describe(job: Job, state: JobState, now: number): Record<string, unknown> {
  const metrics = () => metricsOf.get(job) ?? metricsOf.set(job, evaluationMetrics(job, now)).get(job) ?? {};
  const document = { ...job.document, ServiceOutput: serviceOutput(job, state, metrics) };
  return {
    JobName: job.name,
    JobArn: job.arn,
    RoleArn: job.roleArn,
    JobCategory: job.category,
    JobConfigSchemaVersion: job.schemaVersion,
    JobConfigDocument: JSON.stringify(document),
    CreationTime: seconds(job.created),
    LastModifiedTime: seconds(state.lastModified),
    EndTime: seconds(state.endTime),
    JobStatus: state.status,
    SecondaryStatus: state.secondary,
    SecondaryStatusTransitions: state.transitions.map((t) => ({
      Status: t.Status,
      StartTime: seconds(t.StartTime),
      EndTime: seconds(t.EndTime),
      StatusMessage: t.StatusMessage,
    })),
    FailureReason: state.failureReason,
    Tags: job.tags.length ? job.tags : undefined,
  };
}
