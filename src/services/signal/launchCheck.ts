import type { AwsClients } from '../../aws/clients';
import type { Explain } from '../../aws/errors';
import { deleteObjects, parseS3Uri, s3Uri } from '../../aws/s3';
import { describeJob, type JobDescription } from '../../aws/sagemaker';
import { trainingArithmetic } from '../../core/jobs/arithmetic';
import { buildEvaluationDocument, documentFacts, mlflowConfigOf } from '../../core/jobs/document';
import { describeEstimate } from '../../core/jobs/estimate';
import { defaultHyperparameters } from '../../core/jobs/hyperparameters';
import { newJobFile, type JobFile } from '../../core/jobs/jobfile';
import { parseBaseModelArn } from '../../core/jobs/models';
import { describeCheck } from '../../core/jobs/preflight';
import { DEFAULT_PRICING, modelIdOf, type PricingTable } from '../../core/jobs/pricing';
import { projectedTrainingCost } from '../../core/signal/projectedCost';
import { launchJob, type LaunchDeps, type LaunchResult, type LaunchUi } from '../launch/launch';
import type { Review } from '../launch/review';
import type { KeptSignalCheck, SignalCheckKey, SignalChecks } from './checks';
import { evaluationSignal, type EvaluationSignal } from './evaluationSignal';
import { signalCheckFolder, writeSampledDataset, type SampledDataset } from './sampleDataset';

/** A cloud signal check: K rows of the training data × G rollouts of the unchanged agent, sampled as training will. */
export interface SignalCheckPlan {
  /** dataset: the training data's S3 URI; runtime: the AgentCore runtime ARN; reward: the reward version. */
  key: SignalCheckKey;
  rows: number;
  /** The planned training job's group_size: the evaluation's eval_group_size. */
  groupSize: number;
  /** Picks the rows (default 1): the same seed, the same rows. */
  seed?: string | number;
  region: string;
  roleArn: string;
  baseModelArn: string;
  qualifier?: string;
  /** The training job's sampling hyperparameters (temperature, sampling_top_p, sampling_max_tokens, …); recipe defaults otherwise. */
  sampling?: Record<string, string>;
  /** Where the service writes the traces the report is built from; without it the rollouts are read from the runtime's log. */
  mlflow?: { appArn: string; experimentName?: string };
  /** Default: `<dataset folder>/mtrl-signal-check/output/`. */
  outputPath?: string;
  /** Default: `mtrl-signal-check-<UTC time>`. */
  jobName?: string;
  /** The planned training job's hyperparameters: its rollouts (from the dataset's rows) price the projected cost. */
  training?: Record<string, string>;
  /** The planned training job's rollouts when given outright (steps × batch size × group size). */
  plannedRollouts?: number;
}

/**
 * The training hyperparameters an evaluation takes under the same names, always written: the check measures what training
 * will see, so it keeps training's sampling (temperature 1.0 by default) rather than the evaluation default (temperature 0).
 */
const SAMPLED_AS_TRAINING = ['temperature', 'sampling_top_p', 'sampling_max_tokens', 'success_threshold', 'rollout_timeout'] as const;

/** Said beside the check's estimate: why its evaluation does not sample at the evaluation defaults. */
export function describeCheckSampling(plan: SignalCheckPlan): string {
  const sampling = Object.entries(plan.sampling ?? {})
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return `Samples as training will (${sampling || 'the training defaults: temperature 1.0'}), not at the evaluation defaults (temperature 0): it measures what training will see.`;
}

/** What the editor asks before a check launches: the rollouts, how they sample, the cost and the warnings. */
export function describeCheckConfirmation(plan: SignalCheckPlan, review: Review): string {
  const cost = review.estimate ? `Cost: ${describeEstimate(review.estimate)}.` : (review.estimateMissing ?? '');
  return [
    `${plan.rows} rows of ${plan.key.dataset} × ${plan.groupSize} rollouts of ${plan.key.runtime.split('/').pop()}.`,
    describeCheckSampling(plan),
    cost,
    ...review.checks.filter((c) => c.level === 'warn').map(describeCheck),
  ].join('\n\n');
}

/** The plan of a check for a planned training job: its data, runtime, model, role, MLflow app, group_size and sampling. */
export function signalCheckPlanFor(training: JobFile, options: { rows: number; reward: string; seed?: string | number }): SignalCheckPlan {
  const facts = documentFacts(training.JobCategory, training.JobConfigDocument);
  const modelId = facts.baseModelArn ? parseBaseModelArn(facts.baseModelArn)?.modelId : undefined;
  const hp = { ...defaultHyperparameters('AgentRFT', modelId), ...facts.hyperparameters };
  const mlflow = mlflowConfigOf(training.JobConfigDocument);
  return {
    key: { dataset: facts.datasets.train ?? '', runtime: facts.runtimeArn ?? '', reward: options.reward },
    rows: options.rows,
    groupSize: Number(hp.group_size),
    seed: options.seed,
    region: training.Region,
    roleArn: training.RoleArn,
    baseModelArn: facts.baseModelArn ?? '',
    qualifier: training.JobConfigDocument.AgentConfig?.BedrockAgentCoreConfig?.Qualifier,
    training: hp,
    sampling: Object.fromEntries(SAMPLED_AS_TRAINING.filter((n) => hp[n] !== undefined).map((n) => [n, hp[n]])),
    ...(mlflow ? { mlflow: { appArn: mlflow.MlflowResourceArn, experimentName: mlflow.MlflowExperimentName } } : {}),
  };
}

const stamp = (at: Date) => at.toISOString().replace(/\D/g, '').slice(0, 14);

/** The evaluation job a plan launches, on the sampled rows. */
export function signalCheckJob(plan: SignalCheckPlan, sampleUri: string, at = new Date()): JobFile {
  const jobName = plan.jobName ?? `mtrl-signal-check-${stamp(at)}`;
  const hyperparameters: Record<string, string> = {};
  // Written even when unset: left out, the evaluation's own defaults (temperature 0) would make every group's rollouts alike.
  const training = defaultHyperparameters('AgentRFT');
  for (const name of SAMPLED_AS_TRAINING) hyperparameters[name] = plan.sampling?.[name] ?? training[name];
  hyperparameters.eval_group_size = String(plan.groupSize);
  const folder = signalCheckFolder(parseS3Uri(plan.key.dataset)!);
  const document = buildEvaluationDocument({
    runtimeArn: plan.key.runtime,
    qualifier: plan.qualifier,
    evaluationUri: sampleUri,
    outputPath: plan.outputPath ?? s3Uri({ bucket: folder.bucket, key: `${folder.key}output/` }),
    baseModelArn: plan.baseModelArn,
    mlflowArn: plan.mlflow?.appArn,
    experimentName: plan.mlflow?.experimentName || 'mtrl-signal-check',
    runName: jobName,
    hyperparameters,
  });
  return {
    ...newJobFile({ name: jobName, category: 'AgentRFTEvaluation', region: plan.region, roleArn: plan.roleArn }, document),
    Tags: [{ Key: 'mtrl:signal-check', Value: 'true' }],
  };
}

/** What launching needs: the one launch's dependencies, and where checks are kept. */
export interface SignalCheckDeps extends LaunchDeps {
  checks: SignalChecks;
}

export interface SignalCheckLaunch extends LaunchResult {
  /** The sampled rows, once written. */
  sample?: SampledDataset;
  job?: JobFile;
  /** The `running` check kept once the job was created. */
  check?: KeptSignalCheck;
  /** Why the launched check could not be kept (the job runs regardless; `mtrl signal --job NAME --evaluation` reads it). */
  notKept?: string;
}

/**
 * Samples the rows (written beside the training data, where the pre-flight reads them), then launches the evaluation
 * through `launchJob`: its review (pre-flight and cost estimate) goes to `ui.review`, which says whether to launch. A
 * launched check is kept `running`; a check not launched leaves no object behind.
 */
export async function launchSignalCheck(
  plan: SignalCheckPlan,
  deps: SignalCheckDeps,
  ui: LaunchUi = {},
  signal?: AbortSignal,
): Promise<SignalCheckLaunch> {
  const at = new Date();
  const fallbackName = plan.jobName ?? `mtrl-signal-check-${stamp(at)}`;
  if (!parseS3Uri(plan.key.dataset)?.key)
    return {
      launched: false,
      jobName: fallbackName,
      reason: `The training data must be an s3:// URI of a dataset, not '${plan.key.dataset}'.`,
    };
  let sample: SampledDataset;
  try {
    sample = await writeSampledDataset(deps.aws.s3(plan.region), plan.key.dataset, plan.rows, plan.seed ?? 1, signal);
  } catch (error) {
    const reason =
      error instanceof Error && error.constructor === Error
        ? error.message
        : deps.explain(error, `Sampling ${plan.key.dataset}`, plan.region);
    return { launched: false, jobName: fallbackName, reason };
  }
  const job = signalCheckJob(plan, sample.uri, at);
  const location = parseS3Uri(sample.uri)!;
  // Not launched (not confirmed, blocked, refused, failed): the rows written for it go too, unless an earlier check shares them.
  const withdraw = async () => {
    if (sample.created) await deleteObjects(deps.aws.s3(plan.region), location.bucket, [location.key]).catch(() => undefined);
  };
  let result: LaunchResult;
  try {
    result = await launchJob(job, deps, ui);
  } catch (error) {
    await withdraw();
    throw error;
  }
  if (!result.launched) {
    await withdraw();
    return { ...result, sample, job };
  }
  const planned =
    plan.plannedRollouts ??
    (plan.training && trainingArithmetic(sample.datasetRows, plan.training, { modelId: modelIdOf(plan.baseModelArn) }).trainingRollouts);
  const check: KeptSignalCheck = {
    key: plan.key,
    at: at.toISOString(),
    route: 'cloud',
    status: 'running',
    jobName: job.JobName,
    region: plan.region,
    groupSize: plan.groupSize,
    rows: sample.rows,
    rollouts: job.JobName,
    sample: sample.uri,
    ...(result.review?.estimate ? { estimate: result.review.estimate } : {}),
    ...(planned ? { plannedRollouts: planned } : {}),
  };
  try {
    await deps.checks.keep(check);
  } catch (error) {
    return { ...result, sample, job, check, notKept: `The check was not kept: ${(error as Error).message}.` };
  }
  return { ...result, sample, job, check };
}

/** What a refresh needs: clients for the check's region, the error sentence, the store and token prices (default: the built-in table). */
export interface SignalRefreshDeps {
  aws: AwsClients;
  explain: Explain;
  checks: SignalChecks;
  pricing?(): PricingTable;
}

/** Tokens per rollout of a finished evaluation, and the planned training job's cost from them. */
function tokenFigures(check: KeptSignalCheck, measured: EvaluationSignal['tokens'], described: JobDescription, pricing: PricingTable) {
  if (!measured) return {};
  const tokensPerRollout = { prefill: measured.prefill, sample: measured.sample };
  const prices = pricing[modelIdOf(described.config?.EvaluationConfig?.BaseModelArn) ?? ''];
  if (!check.plannedRollouts || !prices) return { tokensPerRollout };
  return { tokensPerRollout, projectedCost: projectedTrainingCost(tokensPerRollout, check.plannedRollouts, prices, measured.source) };
}

/**
 * A running cloud check, asked again: once its job completed, the report from its traces (the `--job` route's reader)
 * is kept `done`; a failed or stopped job is kept `failed` with its reason. Anything else comes back as it was.
 */
export async function refreshSignalCheck(check: KeptSignalCheck, deps: SignalRefreshDeps, signal?: AbortSignal): Promise<KeptSignalCheck> {
  if (check.route !== 'cloud' || check.status !== 'running' || !check.jobName) return check;
  const address = { jobName: check.jobName, category: 'AgentRFTEvaluation' as const, region: check.region };
  const described = await describeJob(deps.aws.sagemaker(check.region), address, signal);
  let next: KeptSignalCheck;
  if (described.JobStatus === 'Failed' || described.JobStatus === 'Stopped') {
    const why = described.FailureReason ?? `it was ${described.JobStatus.toLowerCase()} before it finished`;
    next = { ...check, status: 'failed', error: `Evaluation job ${check.jobName} ${described.JobStatus.toLowerCase()}: ${why}` };
  } else if (described.JobStatus === 'Completed') {
    const read = await evaluationSignal(deps.aws, address, described, signal ?? new AbortController().signal, {
      tokensSource: `signal check ${check.jobName}`,
    });
    next = read.rollouts
      ? {
          ...check,
          status: 'done',
          report: read.report,
          ...tokenFigures(check, read.tokens, described, deps.pricing?.() ?? DEFAULT_PRICING),
        }
      : {
          ...check,
          status: 'failed',
          error: `Evaluation job ${check.jobName} completed, but no rollouts were found in its traces or log.`,
        };
  } else return check;
  await deps.checks.keep(next);
  return next;
}
