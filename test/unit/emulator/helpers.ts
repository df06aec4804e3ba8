import { AwsClients } from '../../../src/aws/clients';
import { createJob } from '../../../src/aws/sagemaker';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../../src/emulator/server';
import { SEEDED } from '../../../src/emulator/seed';
import { loggedSteps, stepValues } from '../../../src/emulator/metricsLedger';
import type { World } from '../../../src/emulator/world';

process.env.AWS_ACCESS_KEY_ID ??= 'test';
process.env.AWS_SECRET_ACCESS_KEY ??= 'test';

export const GPT_OSS = 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b';

/** Starts an emulator and real SDK clients pointed at it; closes both after the body. */
export async function withEmulator(options: EmulatorOptions, body: (emulator: Emulator, aws: AwsClients) => Promise<void>): Promise<void> {
  const emulator = await startEmulator(options);
  const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
  try {
    await body(emulator, aws);
  } finally {
    aws.reset();
    await emulator.close();
  }
}

/**
 * Computes every finished step's MLflow values now, as `mtrl emulator` does in idle time: playing a 100-step job's games
 * takes ~10 s of CPU, minutes on a loaded machine, and a test's CLI must not meet that inside its 30 s answer deadline.
 */
export function computeMetricsAhead(world: World): void {
  const now = world.clock.now();
  for (const job of world.jobs.values())
    if (job.category === 'AgentRFT')
      for (const family of ['training', 'validation'] as const)
        for (const step of loggedSteps(job, now, family)) stepValues(job, family, step);
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export function trainingDocument(hyperParameters: Record<string, string>, runtime = SEEDED.runtime): Record<string, unknown> {
  return {
    AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: runtime, Qualifier: 'DEFAULT' } },
    InputDataConfig: [
      { ChannelName: 'train', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: SEEDED.train } } },
      { ChannelName: 'validation', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: SEEDED.validation } } },
    ],
    OutputDataConfig: { S3OutputPath: 's3://mtrl-demo/output' },
    TrainingConfig: {
      BaseModelArn: GPT_OSS,
      MlflowConfig: { MlflowResourceArn: SEEDED.mlflowApp, MlflowExperimentName: 'tests' },
      AcceptEula: true,
      HyperParameters: hyperParameters,
    },
  };
}

export function evaluationDocument(hyperParameters: Record<string, string>): Record<string, unknown> {
  return {
    AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: SEEDED.runtime, Qualifier: 'DEFAULT' } },
    InputDataConfig: [{ ChannelName: 'evaluation', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: SEEDED.validation } } }],
    OutputDataConfig: { S3OutputPath: 's3://mtrl-demo/eval' },
    EvaluationConfig: { BaseModelArn: GPT_OSS, AcceptEula: true, HyperParameters: hyperParameters },
  };
}

/** Creates an Agent RFT training job on the emulator through the real SDK, as the launch wizard would. */
export async function createTrainingJob(aws: AwsClients, jobName: string, document: Record<string, unknown>): Promise<void> {
  await createJob(aws.sagemaker(), {
    JobName: jobName,
    JobCategory: 'AgentRFT',
    RoleArn: SEEDED.jobRole,
    JobConfigSchemaVersion: '1.0.0',
    JobConfigDocument: JSON.stringify(document),
  });
}
