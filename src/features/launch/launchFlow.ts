import * as vscode from 'vscode';
import { documentFacts } from '../../core/jobs/document';
import type { JobFile } from '../../core/jobs/jobfile';
import { describeCheck } from '../../core/jobs/preflight';
import type { Services } from '../services';
import type { Launcher } from './launcher';
import type { Review } from './review';

/** How a launch may ask the user. `confirm: false` is for tests only: no dialog, warnings accepted. */
export interface LaunchOptions {
  confirm?: boolean;
  /** A review already computed (the wizard's); otherwise the checks run now. */
  review?: Review;
}

export interface LaunchResult {
  launched: boolean;
  jobName: string;
  arn?: string;
  review?: Review;
  /** Why nothing was created: failed checks, the user said no, or the service refused. */
  reason?: string;
}

/** Errors block, warnings ask, then CreateJob; afterwards the job is revealed and the runtime marked as in use. */
export async function launchWithChecks(
  services: Services,
  launcher: Launcher,
  job: JobFile,
  options: LaunchOptions,
  onLaunched: (job: JobFile) => void,
): Promise<LaunchResult> {
  const interactive = options.confirm !== false;
  const review = options.review ?? (await launcher.review(job));
  if (!review) return { launched: false, jobName: job.JobName, reason: 'cancelled' };
  const failed = review.checks.filter((c) => c.level === 'fail');
  if (failed.length) {
    const reason = failed.map(describeCheck).join('\n');
    if (interactive) {
      const choice = await vscode.window.showErrorMessage(
        `${job.JobName} not launched: ${failed[0].message}${failed.length > 1 ? ` (+${failed.length - 1} more)` : ''}`,
        'Show All',
      );
      if (choice) services.output.show(true);
    }
    return { launched: false, jobName: job.JobName, review, reason };
  }
  const warnings = review.checks.filter((c) => c.level === 'warn');
  if (warnings.length && interactive) {
    const launch = 'Launch Anyway';
    const answer = await vscode.window.showWarningMessage(
      `Launch ${job.JobName} with ${warnings.length} warning${warnings.length > 1 ? 's' : ''}?`,
      { modal: true, detail: warnings.map(describeCheck).join('\n\n') },
      launch,
    );
    if (answer !== launch) return { launched: false, jobName: job.JobName, review, reason: 'declined' };
  }
  const created = await launcher.create(job);
  if (!created.arn) {
    if (interactive) void vscode.window.showErrorMessage(created.error ?? `Creating ${job.JobName} failed.`);
    return { launched: false, jobName: job.JobName, review, reason: created.error };
  }
  if (job.Budget)
    await services.stores.budgets.set(created.arn, {
      dollars: job.Budget.Dollars,
      autoStop: job.Budget.AutoStop === true,
    });
  onLaunched(job);
  // The jobs tree may not be installed in every build; the launch stands without it.
  await Promise.resolve(
    vscode.commands.executeCommand('mtrl.revealJob', { jobName: job.JobName, category: job.JobCategory, region: job.Region }),
  ).catch(() => undefined);
  if (interactive) void warnAboutRedeploy(services, job);
  return { launched: true, jobName: job.JobName, arn: created.arn, review };
}

/** Redeploying the runtime while the job runs stops in-flight rollouts and fails the job: said once, until turned off. */
async function warnAboutRedeploy(services: Services, job: JobFile): Promise<void> {
  const off = services.stores.redeployWarningOff;
  if (off.get()) return;
  const runtime = documentFacts(job.JobCategory, job.JobConfigDocument).runtimeArn?.split('/').pop() ?? 'the agent runtime';
  const never = "Don't Show Again";
  const choice = await vscode.window.showWarningMessage(
    `${job.JobName} launched. Do not redeploy runtime ${runtime} while it runs: in-flight rollouts stop and the job fails.`,
    never,
  );
  if (choice === never) await off.set(true);
}
