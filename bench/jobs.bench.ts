// Jobs tree: time to show a first page of 50 jobs (ListJobs + DescribeJob each, 5 at a time) against one describe after another,
// over the emulator with a per-request latency like a real network. Run: npm run bench (or: node --import tsx bench/jobs.bench.ts [--latency-ms N])
import { parseArgs } from 'node:util';
import { CreateJobCommand } from '@aws-sdk/client-sagemaker';
import { AwsClients } from '../src/aws/clients';
import { DEFAULT_PRICING } from '../src/core/jobs/pricing';
import { jobDescription } from '../src/core/jobs/summary';
import { jobTooltip } from '../src/core/jobs/tooltip';
import { PAGE_SIZE, sageMakerJobsBackend, type JobsBackend } from '../src/services/jobs/backend';
import { JobsModel } from '../src/services/jobs/model';
import type { JobNode, RootNode } from '../src/services/jobs/nodes';
import { startEmulator } from '../src/emulator/server';
import { SEEDED } from '../src/emulator/seed';

const { values } = parseArgs({ options: { 'latency-ms': { type: 'string', default: '20' } } });
const latencyMs = Number(values['latency-ms']);
Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function treePage(backend: JobsBackend): Promise<number> {
  const model = new JobsModel({
    backend,
    regions: () => ['us-east-1'],
    explain: (e) => ({ kind: 'other', sentence: String(e) }),
    hasRollouts: () => false,
  });
  const [root] = (await model.getChildren()) as RootNode[];
  const started = performance.now();
  const jobs = (await model.getChildren(root)) as JobNode[];
  const now = new Date();
  for (const job of jobs) {
    if (!job.details) continue;
    jobDescription(job.details, DEFAULT_PRICING, now);
    jobTooltip(job.details, DEFAULT_PRICING, now);
  }
  if (jobs.length !== PAGE_SIZE) throw new Error(`listed ${jobs.length} jobs`);
  return performance.now() - started;
}

/** The baseline: the same calls, one describe after another. */
async function oneByOne(backend: JobsBackend): Promise<number> {
  const started = performance.now();
  const page = await backend.listPage('us-east-1', 'AgentRFT', { sortBy: 'CreationTime', ascending: false }, undefined);
  for (const job of page.jobs) await backend.describe('us-east-1', 'AgentRFT', job.name);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ latencyMs, history: false });
  const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
  const backend = sageMakerJobsBackend(aws);
  const document = JSON.stringify({
    AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: SEEDED.runtime, Qualifier: 'DEFAULT' } },
    InputDataConfig: [{ ChannelName: 'train', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: SEEDED.train } } }],
    OutputDataConfig: { S3OutputPath: 's3://mtrl-demo/output' },
    TrainingConfig: {
      BaseModelArn: 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b',
      AcceptEula: true,
      HyperParameters: { max_steps: '10' },
    },
  });
  await Promise.all(
    Array.from({ length: PAGE_SIZE }, (_, i) =>
      aws.sagemaker().send(
        new CreateJobCommand({
          JobName: `bench-${i}`,
          JobCategory: 'AgentRFT',
          RoleArn: SEEDED.jobRole,
          JobConfigSchemaVersion: '1.0.0',
          JobConfigDocument: document,
        }),
      ),
    ),
  );
  await treePage(backend);
  const tree: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < 5; i++) {
    tree.push(await treePage(backend));
    base.push(await oneByOne(backend));
  }
  const t = median(tree);
  const b = median(base);
  console.log(
    `first page of ${PAGE_SIZE} jobs (latency ${latencyMs} ms/request): tree ${t.toFixed(0)} ms, one describe at a time ${b.toFixed(0)} ms, ratio ${(t / b).toFixed(2)}`,
  );
  await emulator.close();
  aws.reset();
}

void main();
