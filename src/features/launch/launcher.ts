import * as vscode from 'vscode';
import { DocumentSchemas } from '../../core/jobs/documentSchema';
import type { JobFile } from '../../core/jobs/jobfile';
import { modelsFromSetting } from '../../core/jobs/models';
import { describeCheck } from '../../core/jobs/preflight';
import { launchJob, reviewJob, type LaunchDeps, type LaunchResult, type LaunchUi } from '../../services/launch/launch';
import { ModelCatalog } from '../../services/launch/modelCatalog';
import { notificationsCheck } from '../../services/launch/notifications';
import type { Review } from '../../services/launch/review';
import type { Services } from '../services';
import type { SignalChecks } from '../../services/signal/checks';
import { keptChecks } from '../keptSignalChecks';
import { reviewStep, saveJobFile } from './reviewStep';
import { BACK, type StepPosition } from './wizardInput';

/** How a launch may ask the user. `confirm: false` is for tests only: no dialog, warnings accepted. */
export interface LaunchOptions {
  confirm?: boolean;
  /** A review already computed; otherwise the checks run now. */
  review?: Review;
  /** Where the review step sits (a wizard's last step); alone otherwise. */
  position?: StepPosition;
  /** Sees the review before it is shown (a job file's diagnostics). */
  onReviewed?(review: Review): void;
}

/** The extension's side of a launch: the dialogs around `launchJob`, shared by the wizards, job files and the tree. */
export class Launcher {
  readonly models: ModelCatalog;
  /** What every launch uses; the signal check launches its evaluation through the same. */
  readonly deps: LaunchDeps & { signalChecks: SignalChecks };

  constructor(
    private readonly services: Services,
    private readonly onLaunched: (job: JobFile) => void,
  ) {
    this.models = new ModelCatalog(services.aws, () => modelsFromSetting(services.settings.get('launch.models')));
    services.context.subscriptions.push(services.onDidChangeAws(() => this.models.clear()));
    this.deps = {
      aws: services.aws,
      schemas: new DocumentSchemas(),
      models: this.models,
      explain: services.explain,
      pricing: () => services.settings.pricing(),
      smokeResults: () => services.stores.smokeResults.all(),
      log: (line, level) => (level === 'error' ? services.output.error(line) : services.output.info(line)),
      signalChecks: keptChecks(services),
      // Validate and Launch are asked for: a Lambda agent gets its one documented smoke call (not on save).
      lambdaSmoke: true,
    };
  }

  /** Pre-flight, arithmetic and cost range with a cancellable progress notification (`quiet`: the status bar only, for checks on save). */
  review(job: JobFile, options: { quiet?: boolean } = {}): Promise<Review | undefined> {
    // On save only the checks are shown: no need to read the kept signal checks.
    const deps = options.quiet ? { ...this.deps, signalChecks: undefined, lambdaSmoke: false } : this.deps;
    return this.withProgress(job, (signal) => reviewJob(job, deps, signal), options.quiet);
  }

  launch(job: JobFile, options: LaunchOptions = {}): Promise<LaunchResult> {
    return launchJob(job, this.deps, this.ui(options), options.review);
  }

  private async withProgress(job: JobFile, run: (signal: AbortSignal) => Promise<Review | undefined>, quiet = false) {
    return vscode.window.withProgress(
      {
        location: quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
        title: `MTRL: checking ${job.JobName}`,
        cancellable: !quiet,
      },
      async (progress, token) => {
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        progress.report({ message: 'schema, hyperparameters, datasets, role, runtime, model, cost…' });
        try {
          return await run(abort.signal);
        } finally {
          cancel.dispose();
        }
      },
    );
  }

  private ui(options: LaunchOptions): LaunchUi {
    const interactive = options.confirm !== false;
    const launched = async (job: JobFile, arn: string, review: Review) => {
      if (job.Budget) await this.services.stores.budgets.set(arn, { dollars: job.Budget.Dollars, autoStop: job.Budget.AutoStop === true });
      this.onLaunched(job);
      // The jobs tree may not be installed in every build; the launch stands without it.
      const ref = { jobName: job.JobName, category: job.JobCategory, region: job.Region };
      await Promise.resolve(vscode.commands.executeCommand('mtrl.revealJob', ref)).catch(() => undefined);
      if (interactive) void this.warnAboutRedeploy(job, review);
    };
    const checking: LaunchUi['checking'] = (job, run) => this.withProgress(job, run);
    const review: LaunchUi['review'] = async (job, checked) => {
      options.onReviewed?.(checked);
      if (!interactive) return 'launch';
      const position = options.position ?? { title: `MTRL: Launch ${job.JobName}`, step: 1, totalSteps: 1 };
      const checkNotifications = async (j: JobFile) =>
        j.Notifications ? notificationsCheck(this.services.aws, this.services.explain, j.Notifications, j.Region) : undefined;
      const choice = await reviewStep(job, checked, position, async (j) => void (await saveJobFile(j)), checkNotifications);
      return choice === 'launch' ? 'launch' : choice === BACK ? 'back' : 'cancel';
    };
    if (!interactive) return { checking, review, launched };
    return {
      checking,
      review,
      launched,
      blocked: async (job, failed) => {
        const more = failed.length > 1 ? ` (+${failed.length - 1} more)` : '';
        const choice = await vscode.window.showErrorMessage(`${job.JobName} not launched: ${failed[0].message}${more}`, 'Show All');
        if (choice) this.services.output.show(true);
      },
      confirmWarnings: async (job, warnings) => {
        const launch = 'Launch Anyway';
        const answer = await vscode.window.showWarningMessage(
          `Launch ${job.JobName} with ${warnings.length} warning${warnings.length > 1 ? 's' : ''}?`,
          { modal: true, detail: warnings.map(describeCheck).join('\n\n') },
          launch,
        );
        return answer === launch;
      },
      createFailed: (message) => void vscode.window.showErrorMessage(message),
    };
  }

  /** Redeploying the runtime while the job runs stops in-flight rollouts and fails the job: said once, until turned off. */
  private async warnAboutRedeploy(job: JobFile, review: Review): Promise<void> {
    const off = this.services.stores.redeployWarningOff;
    if (off.get()) return;
    const runtime = review.facts.runtimeArn?.split('/').pop() ?? 'the agent runtime';
    const never = "Don't Show Again";
    const choice = await vscode.window.showWarningMessage(
      `${job.JobName} launched. Do not redeploy runtime ${runtime} while it runs: in-flight rollouts stop and the job fails.`,
      never,
    );
    if (choice === never) await off.set(true);
  }
}
