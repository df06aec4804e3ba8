import { newJob } from './createJob';
import type { Job } from './jobModel';
import { GPT_OSS, SEEDED, trainingDocument } from './seed';
import type { World } from './world';

// Seeded jobs modelled on a real (non-Wordle) run: the SDK evaluation pipeline's pair and a training job's recorded status messages.

const DAY = 24 * 3_600_000;

/** An evaluation as the SDK's pipeline writes it (the real run's document): channel `evaluation`, few hyperparameters, fixed run names. */
function pipelineEvaluationDocument(runName: string, adapter?: string): Record<string, unknown> {
  return {
    AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: SEEDED.runtime } },
    InputDataConfig: [{ ChannelName: 'evaluation', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: SEEDED.validation } } }],
    OutputDataConfig: {
      S3OutputPath: 's3://mtrl-demo/comparison-evaluation/',
      MlflowConfig: {
        MlflowResourceArn: SEEDED.mlflowApp,
        MlflowExperimentName: 'mtrl-eval-openai-reasoning-gpt-oss-20b',
        MlflowRunName: runName,
      },
    },
    EvaluationConfig: {
      BaseModelArn: `${GPT_OSS}/3.43.0`,
      AcceptEula: true,
      HyperParameters: { eval_group_size: '2', success_threshold: '1.0' },
    },
    ...(adapter ? { ModelPackageConfig: { InputModelPackageArn: adapter } } : {}),
    StoppingCondition: { MaxRuntimeInSeconds: 86400 },
  };
}

/** Adds the real run's jobs, older than the other seeded ones so the rows UI checks expect first stay first. */
export function seedRealRunJobs(world: World, now: number, add: (job: Job) => void, adapter: string): void {
  // One execution of the SDK's evaluation pipeline: the base model, then the fine-tuned adapter (listed after the older seeded evaluations, which UI checks expect first).
  for (const [name, runName, model, created] of [
    [SEEDED.pipelineBaseEvaluation, 'base-model-eval', undefined, now - 2.42 * DAY],
    [SEEDED.pipelineFineTunedEvaluation, 'fine-tuned-model-eval', adapter, now - 2.4 * DAY],
  ] as const)
    add(
      newJob(world, {
        name,
        category: 'AgentRFTEvaluation',
        roleArn: SEEDED.jobRole,
        document: pipelineEvaluationDocument(runName, model),
        created,
        speed: 1,
      }),
    );
  const support = {
    ...trainingDocument('support', { global_batch_size: '32', group_size: '4', max_steps: '10' }),
    AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: SEEDED.supportRuntime, Qualifier: 'DEFAULT' } },
    // A support task's tickets and no validation channel, as the real run: its rollouts play the refund desk.
    InputDataConfig: [{ ChannelName: 'train', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: SEEDED.refundTrain } } }],
  };
  const minute = 60_000;
  const restarted = newJob(world, {
    name: SEEDED.restartedJob,
    category: 'AgentRFT',
    roleArn: SEEDED.jobRole,
    document: support,
    created: now - 3.2 * DAY,
    speed: 1,
  });
  restarted.recorded = {
    transitions: [
      { Status: 'Starting', afterMs: 0, StatusMessage: 'Job created' },
      { Status: 'Downloading', afterMs: 0.5 * minute, StatusMessage: 'Downloading input data' },
      { Status: 'Starting', afterMs: minute, StatusMessage: 'Job waiting for capacity' },
      { Status: 'Training', afterMs: 5 * minute, StatusMessage: 'Training in progress, step 3/10: RolloutStart' },
      { Status: 'Training', afterMs: 9 * minute, StatusMessage: 'Restarting job due to retriable internal error' },
      { Status: 'Training', afterMs: 18 * minute, StatusMessage: 'Training in progress, step 10/10: CheckpointStart' },
    ],
    completedAfterMs: 19.2 * minute,
    progress: { BatchSize: 32, CurrentStep: 10, MaxSteps: 10, StepsPerEpoch: 2 },
    rollouts: { Total: 1280, Completed: 1511 },
    tokens: { PrefillTokenCount: 4_830_000, SampleTokenCount: 780_000, TrainTokenCount: 5_600_000 },
  };
  add(restarted);
}
