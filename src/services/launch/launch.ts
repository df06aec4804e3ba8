import type { AwsClients } from '../../aws/clients';
import type { Explain } from '../../aws/errors';
import { createJob } from '../../aws/sagemaker';
import { documentFacts, type DocumentFacts } from '../../core/jobs/document';
import type { DocumentSchemas } from '../../core/jobs/documentSchema';
import { createJobRequest, type JobFile } from '../../core/jobs/jobfile';
import { describeCheck, type CheckResult } from '../../core/jobs/preflight';
import type { SmokeResults } from '../../core/smoke/record';
import { modelIdOf, type PricingTable } from '../../core/jobs/pricing';
import { quotaRequest } from '../../core/jobs/quotas';
import { readDatasets } from '../datasets/channels';
import { enableNotifications } from './notifications';
import type { ModelCatalog } from './modelCatalog';
import { runPreflight, type PreflightDeps } from './preflight';
import { buildReview, describeReview, type Review } from './review';
import { ownTokenAverages } from './tokenHistory';
import type { KeptSignalCheck, SignalChecks } from '../../core/signal/checks';

/** The newest kept check of a training job's dataset and runtime, whatever its reward version (the reward lives in the agent). */
export async function latestSignalCheck(checks: SignalChecks, facts: DocumentFacts): Promise<KeptSignalCheck | undefined> {
  const dataset = facts.datasets.train;
  if (!dataset || !facts.runtimeArn) return undefined;
  return (await checks.list()).find((c) => c.key.dataset === dataset && c.key.runtime === facts.runtimeArn);
}

/** What a launch needs from its host (the extension or a test): clients, caches, settings and a log. */
export interface LaunchDeps {
  aws: AwsClients;
  schemas: DocumentSchemas;
  models: ModelCatalog;
  explain: Explain;
  pricing(): PricingTable;
  smokeResults(): SmokeResults;
  log(line: string, level?: 'info' | 'error'): void;
  /** Where learning-signal checks are kept: a training job's review shows the latest for its dataset and runtime. */
  signalChecks?: SignalChecks;
  /** Smoke-call a bring-your-own-agent Lambda with the documented request (one invocation). */
  lambdaSmoke?: boolean;
}

/** Where a launch asks the user; each question absent means "yes" (tests and `confirm: false`). */
export interface LaunchUi {
  /** Runs the review, e.g. under a cancellable progress notification. */
  checking?(job: JobFile, run: (signal?: AbortSignal) => Promise<Review | undefined>): Promise<Review | undefined>;
  /** Shows the figures and checks; 'launch' goes on, 'back' returns to the wizard's previous step. */
  review?(job: JobFile, review: Review): Promise<'launch' | 'back' | 'cancel'>;
  /** Failed checks block the launch: tell the user why. */
  blocked?(job: JobFile, failed: readonly CheckResult[]): Promise<void> | void;
  /** Warnings ask first: true to launch anyway. */
  confirmWarnings?(job: JobFile, warnings: readonly CheckResult[]): Promise<boolean>;
  createFailed?(message: string): void;
  /** After CreateJob: budgets, banners, revealing the job. */
  launched?(job: JobFile, arn: string, review: Review): Promise<void>;
}

export interface LaunchResult {
  launched: boolean;
  jobName: string;
  arn?: string;
  review?: Review;
  /** Why nothing was created: failed checks, the user said no or went back, or the service refused. */
  reason?: string;
}

/** Pre-flight, arithmetic and cost range of one job, reading its document once; undefined when cancelled. */
export async function reviewJob(job: JobFile, deps: LaunchDeps, signal?: AbortSignal): Promise<Review | undefined> {
  const facts = documentFacts(job.JobCategory, job.JobConfigDocument);
  const preflight: PreflightDeps = {
    aws: deps.aws,
    schemas: deps.schemas,
    models: (region, s) => deps.models.offered(region, s),
    datasets: (channels, batchSize, s) => readDatasets(deps.aws.s3(), channels, batchSize, deps.explain, s),
    smokeResults: deps.smokeResults(),
    lambdaSmoke: deps.lambdaSmoke,
  };
  try {
    const outcome = await runPreflight(job, preflight, signal, facts);
    const modelId = modelIdOf(facts.baseModelArn);
    const own = await ownTokenAverages(deps.aws.sagemaker(job.Region), job.JobCategory, modelId, signal).catch(() => []);
    const prices = modelId ? deps.pricing()[modelId] : undefined;
    const review = buildReview(job, outcome.results, outcome.rows, prices, own, facts);
    if (deps.signalChecks && job.JobCategory === 'AgentRFT') review.signal = { check: await latestSignalCheck(deps.signalChecks, facts) };
    for (const line of [...describeReview(review), ...review.checks.map(describeCheck)]) deps.log(`[pre-flight ${job.JobName}] ${line}`);
    return review;
  } catch (error) {
    if (signal?.aborted) return undefined;
    throw error;
  }
}

/** The notification rule first, as the SDK makes it before train(); then CreateJob. The service's own message is kept in the sentence. */
async function create(job: JobFile, deps: LaunchDeps): Promise<{ arn?: string; error?: string }> {
  let ruleArn: string | undefined;
  if (job.Notifications)
    try {
      ruleArn = await enableNotifications(deps.aws, job.Notifications, job.Region);
      deps.log(`Notification rule for ${job.JobName}: ${ruleArn}`);
    } catch (error) {
      const message = `${deps.explain(error, 'Making the notification rule', job.Region)} The job was not created.`;
      deps.log(message, 'error');
      return { error: message };
    }
  try {
    const arn = await createJob(deps.aws.sagemaker(job.Region), createJobRequest(job, ruleArn));
    deps.log(`Launched ${job.JobCategory} job ${job.JobName}: ${arn}`);
    return { arn };
  } catch (error) {
    const explained = deps.explain(error, `Creating job ${job.JobName}`, job.Region);
    // The account's concurrency quota refused it: name the request that lifts it, as the pre-flight's quota line does.
    const quota = (error as { name?: string } | undefined)?.name === 'ResourceLimitExceeded';
    const message = quota ? `${explained} ${quotaRequest(job.JobCategory, job.Region)}` : explained;
    deps.log(message, 'error');
    return { error: message };
  }
}

/**
 * The one launch every entry point goes through (wizards, job files, Launch Similar): review (unless given), the
 * review shown, errors block, warnings ask, CreateJob, then `ui.launched`.
 */
export async function launchJob(job: JobFile, deps: LaunchDeps, ui: LaunchUi, given?: Review): Promise<LaunchResult> {
  const run = (signal?: AbortSignal) => reviewJob(job, deps, signal);
  const checked = given ?? (await (ui.checking ? ui.checking(job, run) : run()));
  if (!checked) return { launched: false, jobName: job.JobName, reason: 'cancelled' };
  const not = (reason: string | undefined): LaunchResult => ({ launched: false, jobName: job.JobName, review: checked, reason });
  const choice = ui.review ? await ui.review(job, checked) : 'launch';
  if (choice !== 'launch') return not(choice === 'back' ? 'back' : 'cancelled');
  const failed = checked.checks.filter((c) => c.level === 'fail');
  if (failed.length) {
    await ui.blocked?.(job, failed);
    return not(failed.map(describeCheck).join('\n'));
  }
  const warnings = checked.checks.filter((c) => c.level === 'warn');
  if (warnings.length && ui.confirmWarnings && !(await ui.confirmWarnings(job, warnings))) return not('declined');
  const created = await create(job, deps);
  if (!created.arn) {
    ui.createFailed?.(created.error ?? `Creating ${job.JobName} failed.`);
    return not(created.error);
  }
  await ui.launched?.(job, created.arn, checked);
  return { launched: true, jobName: job.JobName, arn: created.arn, review: checked };
}
