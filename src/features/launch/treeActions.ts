import * as vscode from 'vscode';
import { jobFileFromDescription, nextJobName, type JobFile } from '../../core/jobs/jobfile';
import { jobNameProblem } from '../../core/jobs/preflight';
import { isJobRef, parseJobArgument } from '../../core/jobs/reference';
import { describeJobIn, jobsIn } from '../../services/jobs/lookup';
import type { Services } from '../services';

/** The job of a command argument (a Jobs view node, a job ARN, …) as a job file, exactly as the service holds it (without ServiceOutput). */
export async function jobFileOf(services: Services, arg: unknown): Promise<JobFile | undefined> {
  const ref = parseJobArgument(arg);
  if (!isJobRef(ref)) {
    void vscode.window.showInformationMessage('Run this from a job in the MTRL Jobs view.');
    return undefined;
  }
  const region = ref.region ?? services.aws.current.region;
  try {
    const job = await describeJobIn(services.aws, { ...ref, region });
    return jobFileFromDescription(job, region);
  } catch (error) {
    void vscode.window.showErrorMessage(services.explain(error, `Reading job ${ref.jobName}`, region));
    return undefined;
  }
}

/** The same job under a fresh name the user confirms; undefined when they cancel. */
export async function similarJob(services: Services, job: JobFile): Promise<JobFile | undefined> {
  const taken = new Set<string>();
  const stem = job.JobName.replace(/-\d+$/, '');
  try {
    for await (const j of jobsIn(services.aws, job.Region, { JobCategory: job.JobCategory, NameContains: stem }))
      if (j.JobName) taken.add(j.JobName);
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
