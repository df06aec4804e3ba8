import * as vscode from 'vscode';
import type { JobFile } from '../../core/jobs/jobfile';
import type { Services } from '../services';
import { launchEvaluationWizard } from './evaluationWizard';
import { JOB_FILE_SELECTOR, JobFiles } from './jobFiles';
import { Launcher, type LaunchOptions } from './launcher';
import { saveJobFile } from './reviewStep';
import { RESUME_LENS_SELECTOR, ResumeLens, resumeJob } from './resumeJob';
import { RuntimeBanner } from './runtimeBanner';
import { launchTrainingWizard } from './trainingWizard';
import { jobFileOf, similarJob } from './treeActions';

/** Launching jobs: the two wizards, job files (lenses, diagnostics), tree actions and the runtime-in-use banner. */
export function register(services: Services): Launcher {
  const banner = new RuntimeBanner(services);
  const launcher = new Launcher(services, (job: JobFile) => banner.jobLaunched(job));
  const jobFiles = new JobFiles(services, launcher);
  const subscriptions = services.context.subscriptions;

  subscriptions.push(
    banner,
    jobFiles,
    vscode.languages.registerCodeLensProvider(JOB_FILE_SELECTOR, jobFiles),
    vscode.workspace.onDidOpenTextDocument((doc) => jobFiles.showParseProblems(doc)),
    vscode.workspace.onDidChangeTextDocument((e) => jobFiles.showParseProblems(e.document)),
    vscode.workspace.onDidSaveTextDocument((doc) => void jobFiles.validateSaved(doc)),
    vscode.commands.registerCommand('mtrl.launchTrainingJob', () => launchTrainingWizard(services, launcher)),
    vscode.commands.registerCommand('mtrl.launchEvaluationJob', () => launchEvaluationWizard(services, launcher)),
    vscode.commands.registerCommand('mtrl.validateJobFile', (uri?: vscode.Uri, options?: { confirm?: boolean }) =>
      jobFiles.validate(uri, options),
    ),
    // `options.confirm: false` is for tests only: it skips the review and the dialogs.
    vscode.commands.registerCommand('mtrl.launchJobFile', (uri?: vscode.Uri, options?: LaunchOptions) => jobFiles.launch(uri, options)),
    // A target URI (export) and `{ jobName, confirm: false }` (launch similar) let tests and other commands skip the dialogs.
    vscode.commands.registerCommand('mtrl.exportJobFile', async (node?: unknown, target?: vscode.Uri) => {
      const job = await jobFileOf(services, node);
      return job && saveJobFile(job, target);
    }),
    vscode.commands.registerCommand('mtrl.launchSimilarJob', async (node?: unknown, options: LaunchOptions & { jobName?: string } = {}) => {
      const original = await jobFileOf(services, node);
      const job = original && (options.jobName ? { ...original, JobName: options.jobName } : await similarJob(services, original));
      if (!job) return undefined;
      const result = await launcher.launch(job, options);
      // Closing the review (or cancelling the checks) launches nothing and answers nothing.
      return result.review && result.reason !== 'back' && result.reason !== 'cancelled' ? result : undefined;
    }),
    vscode.commands.registerCommand('mtrl.resumeJob', (node?: unknown, options?: LaunchOptions) =>
      resumeJob(services, launcher, node, options),
    ),
    vscode.languages.registerCodeLensProvider(RESUME_LENS_SELECTOR, new ResumeLens(services)),
  );
  for (const doc of vscode.workspace.textDocuments) jobFiles.showParseProblems(doc);
  banner.start();
  return launcher;
}
