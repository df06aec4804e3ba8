import * as vscode from 'vscode';
import { describeJob, listJobs } from '../../aws/sagemaker';
import { jobFileFromDescription, nextJobName, type JobFile } from '../../core/jobs/jobfile';
import { jobNameProblem } from '../../core/jobs/preflight';
import type { JobCategory } from '../../core/jobs/status';
import type { Services } from '../services';

/** What a job node of the jobs tree passes to its menu commands (contract of view `mtrl.jobs`). */
export interface JobRef {
  jobName: string;
  category: JobCategory;
  region: string;
}

function isJobRef(value: unknown): value is JobRef {
  const v = value as Partial<JobRef> | undefined;
  return typeof v?.jobName === 'string' && (v.category === 'AgentRFT' || v.category === 'AgentRFTEvaluation') && typeof v.region === 'string';
}

/** The job as a job file, exactly as the service holds it (without ServiceOutput). */
export async function jobFileOf(services: Services, ref: unknown): Promise<JobFile | undefined> {
  if (!isJobRef(ref)) {
    void vscode.window.showInformationMessage('Run this from a job in the MTRL Jobs view.');
    return undefined;
  }
  try {
    const job = await describeJob(services.aws.sagemaker(ref.region), { jobName: ref.jobName, category: ref.category });
    return jobFileFromDescription(job, ref.region);
  } catch (error) {
    void vscode.window.showErrorMessage(services.explain(error, `Reading job ${ref.jobName}`, ref.region));
    return undefined;
  }
}

/** The same job under a fresh name the user confirms; undefined when they cancel. */
export async function similarJob(services: Services, job: JobFile): Promise<JobFile | undefined> {
  const taken = new Set<string>();
  const stem = job.JobName.replace(/-\d+$/, '');
  try {
    for await (const j of listJobs(services.aws.sagemaker(job.Region), { JobCategory: job.JobCategory, NameContains: stem })) if (j.JobName) taken.add(j.JobName);
  } catch {
    // The pre-flight checks the name again.
  }
  const name = await vscode.window.showInputBox({
    title: `Launch similar to ${job.JobName}`,
    prompt: 'Name of the new job (same configuration)',
    value: nextJobName(job.JobName, taken),
    validateInput: (v) => jobNameProblem(v.trim()) ?? (taken.has(v.trim()) ? `A job named ${v.trim()} already exists.` : undefined),
  });
  return name ? { ...job, JobName: name.trim() } : undefined;
}
