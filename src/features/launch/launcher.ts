import * as vscode from 'vscode';
import { createJob } from '../../aws/sagemaker';
import { documentFacts } from '../../core/jobs/document';
import { DocumentSchemas } from '../../core/jobs/documentSchema';
import { createJobRequest, type JobFile } from '../../core/jobs/jobfile';
import { modelsFromSetting } from '../../core/jobs/models';
import { describeCheck } from '../../core/jobs/preflight';
import { modelIdOf } from '../../core/jobs/pricing';
import type { Services } from '../services';
import { readDatasets } from '../../services/launchDatasets';
import { ModelCatalog } from './modelCatalog';
import { runPreflight, type PreflightDeps } from '../../services/preflight';
import { buildReview, describeReview, type Review } from './review';
import { ownTokenAverages } from './tokenHistory';

/** The one place launches go through: pre-flight, review figures and CreateJob, shared by the wizard, job files and the tree. */
export class Launcher {
  readonly schemas = new DocumentSchemas();
  readonly models: ModelCatalog;

  constructor(private readonly services: Services) {
    this.models = new ModelCatalog(services.aws, () => modelsFromSetting(services.settings.get('launch.models')));
    services.context.subscriptions.push(services.onDidChangeAws(() => this.models.clear()));
  }

  preflightDeps(): PreflightDeps {
    return {
      aws: this.services.aws,
      schemas: this.schemas,
      models: (region, signal) => this.models.offered(region, signal),
      datasets: (channels, batchSize, signal) => readDatasets(this.services.aws.s3(), channels, batchSize, this.services.explain, signal),
      smokeResults: this.services.stores.smokeResults.all(),
    };
  }

  /** Pre-flight, arithmetic and cost range for a job, with a cancellable progress notification (`quiet`: the status bar only, for checks on save). */
  async review(job: JobFile, options: { quiet?: boolean } = {}): Promise<Review | undefined> {
    return vscode.window.withProgress(
      {
        location: options.quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
        title: `MTRL: checking ${job.JobName}`,
        cancellable: !options.quiet,
      },
      async (progress, token) => {
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        try {
          progress.report({ message: 'schema, hyperparameters, datasets, role, runtime, model…' });
          const outcome = await runPreflight(job, this.preflightDeps(), abort.signal);
          progress.report({ message: 'cost estimate…' });
          const modelId = modelIdOf(documentFacts(job.JobCategory, job.JobConfigDocument).baseModelArn);
          const own = await ownTokenAverages(this.services.aws.sagemaker(job.Region), job.JobCategory, modelId, abort.signal).catch(
            () => [],
          );
          const table = this.services.settings.pricing();
          const review = buildReview(job, outcome.results, outcome.rows, modelId ? table[modelId] : undefined, own);
          for (const line of [...describeReview(review), ...review.checks.map(describeCheck)])
            this.services.output.info(`[pre-flight ${job.JobName}] ${line}`);
          return review;
        } catch (error) {
          if (abort.signal.aborted) return undefined;
          throw error;
        } finally {
          cancel.dispose();
        }
      },
    );
  }

  /** CreateJob through the SageMaker wrapper; the service's own message is kept in the sentence. */
  async create(job: JobFile): Promise<{ arn?: string; error?: string }> {
    try {
      const arn = await createJob(this.services.aws.sagemaker(job.Region), createJobRequest(job));
      this.services.output.info(`Launched ${job.JobCategory} job ${job.JobName}: ${arn}`);
      return { arn };
    } catch (error) {
      const message = this.services.explain(error, `Creating job ${job.JobName}`, job.Region);
      this.services.output.error(message);
      return { error: message };
    }
  }
}
