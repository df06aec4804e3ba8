import type { HealthKind } from '../core/health/findings';
import { newJob } from './createJob';
import type { Job } from './jobModel';
import { SEEDED, trainingDocument } from './seed';
import { ACCOUNT, type World } from './world';

// Seeded training jobs that each go wrong one way from a known step, in us-west-2 (where the real run ran) so the
// us-east-1 history the other views and tests know stays as it was.

export const HEALTH_REGION = 'us-west-2';
const RUNTIME = `arn:aws:bedrock-agentcore:${HEALTH_REGION}:${ACCOUNT}:runtime/wordle_agent-West123456`;
const MLFLOW_APP = `arn:aws:sagemaker:${HEALTH_REGION}:${ACCOUNT}:mlflow-app/app-health01`;

/** Each seeded job, the way it goes wrong and the step a health check must name (overfitting: the first validation point below the best). */
export const HEALTH_JOBS: Readonly<Record<HealthKind, { job: string; step: number }>> = {
  truncation: { job: 'wordle-grpo-responses-cut', step: 12 },
  'no-signal': { job: 'wordle-grpo-no-signal', step: 9 },
  collapse: { job: 'wordle-grpo-collapse', step: 14 },
  overfitting: { job: 'wordle-grpo-reward-hacked', step: 20 },
  'failing-rollouts': { job: 'wordle-grpo-agent-errors', step: 16 },
  stalled: { job: 'wordle-grpo-stalled', step: 8 },
};

/** 32 tasks × 4 rollouts: small steps, so the emulator plays these runs in a moment. */
const HYPERPARAMETERS = {
  global_batch_size: '32',
  group_size: '4',
  max_steps: '30',
  max_epochs: '2',
  val_every: '5',
  sampling_max_tokens: '8192',
  learning_rate: '1e-5',
};

const DAY = 24 * 3_600_000;
const MINUTE = 60_000;
/** How long after the emulator starts the stalled job stays stalled. */
const STALLED_FOR = 3 * 60 * MINUTE;

/** The region's runtime and MLflow app, and the six jobs: five finished days ago, one stalled now and moving on later. */
export function seedHealthJobs(world: World, now: number): void {
  world.runtimes.push({
    id: 'wordle_agent-West123456',
    region: HEALTH_REGION,
    name: 'wordle_agent',
    arn: RUNTIME,
    created: now - 8 * DAY,
    kind: 'ready',
    description: 'Wordle agent (gpt-oss-20b, medium reasoning) in us-west-2',
    effort: 'medium',
  });
  world.mlflowApps.push({
    arn: MLFLOW_APP,
    name: 'app-health01',
    region: HEALTH_REGION,
    created: now - 8 * DAY,
    mlflowVersion: '3.10.0',
    artifactStoreUri: 's3://mtrl-demo/mlflow-west',
  });
  const add = (job: Job) => world.jobs.set(world.jobKey(job.category, job.name, job.region), job);
  const kinds = Object.keys(HEALTH_JOBS) as HealthKind[];
  kinds.forEach((kind, i) => {
    const { job: name, step } = HEALTH_JOBS[kind];
    const hp = { ...HYPERPARAMETERS, ...(kind === 'truncation' ? { sampling_max_tokens: '4096' } : {}) };
    const document = trainingDocument('wordle-health', hp, {
      runtime: RUNTIME,
      train: SEEDED.train,
      validation: SEEDED.validation,
      evaluation: SEEDED.validation,
      evalExperiment: 'wordle-health-eval',
    });
    const config = document.TrainingConfig as { MlflowConfig: { MlflowResourceArn: string } };
    config.MlflowConfig.MlflowResourceArn = MLFLOW_APP;
    (document.OutputDataConfig as { S3OutputPath: string }).S3OutputPath = 's3://mtrl-demo/health-output';
    const job = newJob(world, {
      name,
      category: 'AgentRFT',
      roleArn: SEEDED.jobRole,
      document,
      created: now - (7 - i * 0.5) * DAY,
      region: HEALTH_REGION,
      speed: 1,
    });
    if (kind === 'stalled') {
      // Stalled at `step` 10 minutes ago; it moves on 3 hours after the emulator starts (past the longest host test run, whose
      // checks need it stalled) and finishes about 15 minutes later.
      job.plan.pause = { afterStep: step, ms: 10 * MINUTE + STALLED_FOR };
      job.created = now - (job.plan.startingMs + job.plan.downloadingMs + step * job.plan.stepMs + 10 * MINUTE);
    } else job.pattern = { kind, step };
    add(job);
  });
}
