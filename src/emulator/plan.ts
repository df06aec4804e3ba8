import { defaultHyperparameters } from '../core/jobs/hyperparameters';
import { TRAIN_ANSWERS, VALIDATION_ANSWERS, rowsOf, type DatasetRow } from './answers';
import type { EnvironmentName } from './episode';
import { refundRows } from './refund/tickets';
import type { JobConfigDocument } from '../core/jobs/document';
import type { JobCategory } from '../core/jobs/status';
import { evaluationSkill } from './evaluationSkill';
import type { JobPlan } from './jobModel';
import type { Runtime, World } from './world';

/** What planning needs from the rest of the emulator: the speed, datasets uploaded to its S3, and its runtimes. */
export interface PlanContext {
  speed: number;
  /** Rows of a dataset in the emulator's S3, or undefined when it is not there (the built-in words are used). */
  rowsAt(uri: string): DatasetRow[] | undefined;
  /** Whether the runtime exists, and how it behaves. */
  runtimeKind(runtimeArn: string): Runtime['kind'] | 'missing' | 'other-region';
  /** The game the runtime's agent plays. */
  runtimeEnvironment(runtimeArn: string): EnvironmentName;
  /** The runtime's REASONING_EFFORT. */
  runtimeEffort(runtimeArn: string): 'low' | 'medium' | 'high';
  /** The step of the checkpoint a training job resumes from (its InputModelPackageArn). */
  resumeFrom?: number;
}

/** What planning sees of the world: its speed and runtimes as a job in `region` reaches them, and datasets read by `readRows`. */
export function planContextOf(world: World, region: string, readRows: (uri: string) => DatasetRow[] | undefined): PlanContext {
  const runtime = (arn: string) => world.runtimes.find((r) => r.arn === arn);
  return {
    speed: world.speed,
    rowsAt: readRows,
    runtimeEnvironment: (arn) => runtime(arn)?.environment ?? 'wordle',
    runtimeEffort: (arn) => runtime(arn)?.effort ?? 'medium',
    runtimeKind: (arn) => {
      const found = runtime(arn);
      if (!found) return 'missing';
      return found.region === region ? found.kind : 'other-region';
    },
  };
}

const SECONDS = { starting: 90, downloading: 120, uploading: 150, stopping: 45 };

function int(value: string | undefined, fallback: number): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** Turns a validated document into the job's timeline: the arithmetic of src/core/jobs/arithmetic.ts, durations from the reference run. */
export function planJob(category: JobCategory, doc: JobConfigDocument, roleArn: string, ctx: PlanContext): JobPlan {
  const ms = (seconds: number) => Math.max(1, Math.round((seconds * 1000) / ctx.speed));
  const channel = (name: string) => doc.InputDataConfig?.find((c) => c.ChannelName === name)?.DataSource?.S3DataSource?.S3Uri;
  const environment = ctx.runtimeEnvironment(doc.AgentConfig?.BedrockAgentCoreConfig?.AgentRuntimeArn ?? '');
  // A Wordle agent plays only rows naming an answer; the refund agent plays any prompt text.
  const playable = (uri: string | undefined, split: 'train' | 'eval'): DatasetRow[] => {
    const rows = (uri && ctx.rowsAt(uri)?.filter((r) => environment === 'refund' || r.answer)) || [];
    if (rows.length) return rows;
    if (environment === 'refund') return refundRows(split);
    return split === 'train' ? rowsOf(TRAIN_ANSWERS, 'train') : rowsOf(VALIDATION_ANSWERS, 'val');
  };
  const base = {
    startingMs: ms(SECONDS.starting),
    downloadingMs: ms(SECONDS.downloading),
    uploadingMs: ms(SECONDS.uploading),
    stoppingMs: ms(SECONDS.stopping),
  };
  let plan: JobPlan;
  if (category === 'AgentRFT') {
    const hp = doc.TrainingConfig?.HyperParameters ?? {};
    const gptOss = /gpt-oss/.test(doc.TrainingConfig?.BaseModelArn ?? '');
    const rows = playable(channel('train'), 'train');
    const batchSize = int(hp.global_batch_size, 128);
    const groupSize = int(hp.group_size, 8);
    const maxEpochs = int(hp.max_epochs, 1);
    const maxSteps = int(hp.max_steps, gptOss ? 100 : 50);
    const stepsPerEpoch = Math.max(1, Math.floor(rows.length / batchSize));
    const planned = Math.min(maxSteps, maxEpochs * stepsPerEpoch);
    // A resumed job keeps the original max_steps and runs only the steps after its checkpoint.
    const firstStep = Math.min(ctx.resumeFrom ?? 0, planned);
    const steps = planned - firstStep;
    const rolloutsPerStep = batchSize * groupSize;
    plan = {
      ...base,
      // The reference run: 1,024 rollouts per step, 100 steps in 12 h 40 min, about 450 s a step.
      stepMs: ms(20 + (430 * rolloutsPerStep) / 1024),
      steps,
      ...(firstStep > 0 && { firstStep }),
      rolloutsPerStep,
      batchSize,
      groupSize,
      stepsPerEpoch,
      maxEpochs,
      limitedBySteps: maxSteps < maxEpochs * stepsPerEpoch,
      rows,
      environment,
      // Reward rises for about 15 steps, then plateaus, as in the published run.
      skill: (step) => 0.3 + 0.35 * (1 - Math.exp(-(firstStep + step) / 4)),
    };
  } else {
    // What the document leaves out takes the service's documented defaults (temperature 0 for an evaluation).
    const hp = { ...defaultHyperparameters('AgentRFTEvaluation'), ...doc.EvaluationConfig?.HyperParameters };
    const rows = playable(channel('evaluation'), 'eval');
    const groupSize = int(hp.eval_group_size, 1);
    const skill = evaluationSkill({
      trained: Boolean(doc.ModelPackageConfig?.InputModelPackageArn),
      effort: ctx.runtimeEffort(doc.AgentConfig?.BedrockAgentCoreConfig?.AgentRuntimeArn ?? ''),
      temperature: Number(hp.temperature),
      topP: Number(hp.sampling_top_p),
      maxTokens: Number(hp.sampling_max_tokens),
    });
    plan = {
      ...base,
      // An evaluation of 128 rows took about an hour.
      stepMs: ms(Math.max(120, 28 * rows.length * groupSize)),
      steps: 1,
      rolloutsPerStep: rows.length * groupSize,
      batchSize: rows.length,
      groupSize,
      stepsPerEpoch: 1,
      maxEpochs: 1,
      limitedBySteps: true,
      rows,
      environment,
      skill: () => skill,
    };
  }
  plan.failure = failureOf(doc, roleArn, ctx, plan);
  return plan;
}

/** The seeded and input-triggered failure scenarios. */
function failureOf(doc: JobConfigDocument, roleArn: string, ctx: PlanContext, plan: JobPlan): JobPlan['failure'] {
  if (/wrong-?trust/i.test(roleArn)) {
    return {
      afterMs: Math.round(plan.startingMs / 2),
      reason: `ClientError: Could not assume role ${roleArn}. The role must trust job.sagemaker.amazonaws.com with sts:AssumeRole and sts:TagSession.`,
    };
  }
  const runtime = doc.AgentConfig?.BedrockAgentCoreConfig?.AgentRuntimeArn;
  if (!runtime) return undefined;
  const kind = ctx.runtimeKind(runtime);
  const firstRollout = plan.startingMs + plan.downloadingMs + Math.floor(plan.stepMs / (plan.rolloutsPerStep + 1) / 2);
  if (kind === 'other-region')
    return {
      afterMs: Math.round(plan.startingMs / 2),
      reason: `ClientError: The agent runtime ${runtime} is in another region than the job. The job and the runtime must be in the same region.`,
    };
  if (kind === 'missing')
    return {
      afterMs: Math.round(plan.startingMs / 2),
      reason: `ClientError: Agent runtime ${runtime} was not found. Check the ARN and that the runtime is in the job's region.`,
    };
  // A runtime that raises before the policy call fails every rollout in a job too.
  if (kind === 'error-status' || kind === 'key-error')
    return {
      afterMs: firstRollout,
      reason:
        'AlgorithmError: The agent signaled that the trajectory failed. The agent must return a reward for every rollout, never raise or return an error status.',
    };
  if (kind === 'no-server')
    return {
      afterMs: plan.startingMs + plan.downloadingMs + plan.stepMs / 2,
      reason:
        'AlgorithmError: No sampling requests were received. The agent runtime never called the model: check that @app.entrypoint is the outermost decorator and BedrockAgentCoreApp serves HTTP.',
    };
  return undefined;
}
