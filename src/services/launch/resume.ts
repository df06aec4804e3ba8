import type { AwsClients } from '../../aws/clients';
import { describeJob, listJobs } from '../../aws/sagemaker';
import { resumeJobFile, resumeJobName, resumePointOf, type ResumePoint } from '../../core/jobs/checkpoint';
import { jobFileFromDescription, type JobFile } from '../../core/jobs/jobfile';
import type { JobRef } from '../../core/jobs/reference';

/** A stopped or failed training job, ready to resume: the new job's file and the checkpoint it starts from. */
export interface ResumePlan {
  job: JobFile;
  point: ResumePoint;
  /** The job it goes on from. */
  from: string;
}

/** Reads the job and its last checkpoint; the new job gets a free name. A job that cannot resume comes back as a sentence. */
export async function planResume(
  aws: AwsClients,
  ref: JobRef,
  region: string,
  signal?: AbortSignal,
): Promise<ResumePlan | { problem: string }> {
  const client = aws.sagemaker(region);
  const described = await describeJob(client, ref, signal);
  const found = resumePointOf(
    described.JobCategory ?? ref.category,
    described.JobStatus ?? '',
    described.config?.ServiceOutput,
    !!described.config,
  );
  if ('problem' in found) return { problem: `${ref.jobName}: ${found.problem}` };
  const original = jobFileFromDescription(described, region);
  const taken = new Set<string>();
  for await (const j of listJobs(client, { JobCategory: 'AgentRFT', NameContains: ref.jobName.slice(0, 40) }, signal))
    if (j.JobName) taken.add(j.JobName);
  const name = resumeJobName(original.JobName, found.point.step, taken);
  return { job: resumeJobFile(original, found.point, name), point: found.point, from: original.JobName };
}
