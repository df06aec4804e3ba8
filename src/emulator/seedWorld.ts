import { createHash } from 'node:crypto';
import { promptsJsonl, rowsOf, toJsonl, TRAIN_ANSWERS, VALIDATION_ANSWERS } from './answers';
import { newJob } from './createJob';
import { rolloutPhaseStart } from './jobs';
import { refundRows } from './refund/tickets';
import { evaluationDocument, REFUND, SEEDED, trainingDocument } from './seed';
import { seedHealthJobs } from './seedHealth';
import { seedRealRunJobs } from './seedRealRun';
import { ACCOUNT, type World } from './world';

const DAY = 24 * 3_600_000;

const JOB_POLICY = 'arn:aws:iam::aws:policy/AmazonSageMakerJobFullAccess';
const BUCKET_POLICY = {
  Version: '2012-10-17',
  Statement: [
    {
      Effect: 'Allow',
      Action: ['s3:GetObject', 's3:PutObject', 's3:ListBucket'],
      Resource: ['arn:aws:s3:::mtrl-demo', 'arn:aws:s3:::mtrl-demo/*'],
    },
  ],
};

/** What finished jobs left under their output paths: checkpoints and manifests, so the Resources view has something to count. */
const OUTPUT_OBJECTS: Array<[string, string]> = [
  [`output/${SEEDED.completedJob}/checkpoints/step-50/adapter_model.safetensors`, 'x'.repeat(4096)],
  [`output/${SEEDED.completedJob}/checkpoints/step-100/adapter_model.safetensors`, 'x'.repeat(4096)],
  [`output/${SEEDED.completedJob}/manifest.json`, '{"steps":100}'],
  [`eval-output/${SEEDED.trainedEvaluation}/results.json`, '{"pass_at_1":0.84}'],
  [`eval-output/${SEEDED.baseEvaluation}/results.json`, '{"pass_at_1":0.61}'],
  ['mlflow/0/meta.yaml', 'name: wordle'],
];

function trust(service: string, actions: string[]) {
  return { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: service }, Action: actions }] };
}

/** The seeded account at start: runtimes, the demo bucket, two roles, and a history of jobs. */
export function seedWorld(world: World, history: boolean, runningSpeed?: number): void {
  const now = world.clock.now();
  for (const [arn, kind, description] of [
    [SEEDED.runtime, 'ready', 'Wordle agent (gpt-oss-20b, medium reasoning)'],
    [SEEDED.noServerRuntime, 'no-server', 'Wordle agent deployed without BedrockAgentCoreApp: no HTTP server'],
    [SEEDED.errorStatusRuntime, 'error-status', 'Wordle agent that returns an error status instead of a reward'],
    [SEEDED.lowEffortRuntime, 'ready', 'Wordle agent (gpt-oss-20b, low reasoning)'],
    [SEEDED.silentRuntime, 'ready', 'Wordle agent as in the sample: logs no rollout record'],
    [SEEDED.refundRuntime, 'ready', 'Refund desk agent (gpt-oss-20b): four tools, partial credit; logs no rollout record'],
    [SEEDED.supportRuntime, 'raises-on-400', 'Support agent (tool calls, partial credit): raises when no job is behind the rollout'],
    [SEEDED.keyErrorRuntime, 'key-error', "Support agent that raises KeyError: 'prompt' before the policy call"],
  ] as const) {
    const id = arn.split('runtime/')[1];
    world.runtimes.push({
      id,
      region: arn.split(':')[3],
      name: id.slice(0, id.lastIndexOf('-')),
      arn,
      created: now - 5 * DAY,
      kind,
      description,
      effort: /low reasoning/.test(description) ? 'low' : 'medium',
      // The support agents work tickets: the refund desk is the emulator's support task.
      ...(/^(Refund|Support)/.test(description) ? { environment: 'refund' as const } : {}),
      ...(/no rollout record/.test(description) ? { silent: true } : {}),
    });
  }
  const object = (text: string) => ({
    body: Buffer.from(text),
    contentType: 'application/jsonl',
    lastModified: now - 5 * DAY,
    etag: `"${createHash('md5').update(text).digest('hex')}"`,
  });
  world.buckets.set(
    'mtrl-demo',
    new Map([
      ['wordle/train.jsonl', object(toJsonl(rowsOf(TRAIN_ANSWERS, 'train')))],
      ['wordle/val.jsonl', object(toJsonl(rowsOf(VALIDATION_ANSWERS, 'val')))],
      ['refund/train.jsonl', object(promptsJsonl(refundRows('train')))],
      ['refund/eval.jsonl', object(promptsJsonl(refundRows('eval')))],
      ['refund/routine.jsonl', object(promptsJsonl(refundRows('routine')))],
    ]),
  );
  const jobPolicies = { attachedPolicies: [JOB_POLICY], inlinePolicies: new Map([['mtrl-demo-bucket', BUCKET_POLICY]]) };
  world.roles.set('MtrlJobRole', {
    name: 'MtrlJobRole',
    arn: SEEDED.jobRole,
    created: now - 5 * DAY,
    trustPolicy: trust('job.sagemaker.amazonaws.com', ['sts:AssumeRole', 'sts:TagSession']),
    ...jobPolicies,
  });
  world.topics.add(SEEDED.topic);
  world.eventBuses.add('us-east-1/mtrl-alerts');
  world.roles.set('MtrlWrongTrustRole', {
    name: 'MtrlWrongTrustRole',
    arn: SEEDED.wrongTrustRole,
    created: now - 5 * DAY,
    trustPolicy: trust('sagemaker.amazonaws.com', ['sts:AssumeRole']),
    attachedPolicies: [JOB_POLICY],
    inlinePolicies: new Map(),
  });
  world.mlflowApps.push({
    arn: SEEDED.mlflowApp,
    name: 'app-wordle01',
    region: 'us-east-1',
    created: now - 5 * DAY,
    mlflowVersion: '3.10.0',
    artifactStoreUri: 's3://mtrl-demo/mlflow',
  });
  world.mlflowApps.push({
    arn: SEEDED.oldMlflowApp,
    name: 'app-legacy01',
    region: 'us-east-1',
    created: now - 40 * DAY,
    mlflowVersion: '3.4.0',
    artifactStoreUri: 's3://mtrl-demo/mlflow-legacy',
  });
  for (const [key, text] of OUTPUT_OBJECTS) world.buckets.get('mtrl-demo')?.set(key, object(text));
  if (history) seedJobs(world, now, runningSpeed);
}

function seedJobs(world: World, now: number, runningSpeed?: number): void {
  const add = (job: ReturnType<typeof newJob>) => world.jobs.set(world.jobKey(job.category, job.name, job.region), job);
  // History ran at real speed (12 h 40 min for 100 steps); only the in-progress job follows --speed.
  const reference = {
    global_batch_size: '128',
    group_size: '8',
    sampling_max_tokens: '8192',
    max_epochs: '20',
    max_steps: '100',
    learning_rate: '1e-5',
  };
  const completed = newJob(world, {
    name: SEEDED.completedJob,
    category: 'AgentRFT',
    roleArn: SEEDED.jobRole,
    document: trainingDocument('wordle', reference),
    created: now - 3 * DAY,
    speed: 1,
  });
  add(completed);
  add(
    newJob(world, {
      name: SEEDED.failedJob,
      category: 'AgentRFT',
      roleArn: SEEDED.wrongTrustRole,
      document: trainingDocument('wordle', reference),
      created: now - 2 * DAY,
      speed: 1,
    }),
  );
  const adapter = `arn:aws:sagemaker:us-east-1:${ACCOUNT}:model-package/${SEEDED.completedJob}-adapter/1`;
  add(
    newJob(world, {
      name: SEEDED.baseEvaluation,
      category: 'AgentRFTEvaluation',
      roleArn: SEEDED.jobRole,
      document: evaluationDocument('base-model-eval'),
      created: now - 1.5 * DAY,
      speed: 1,
    }),
  );
  add(
    newJob(world, {
      name: SEEDED.trainedEvaluation,
      category: 'AgentRFTEvaluation',
      roleArn: SEEDED.jobRole,
      document: evaluationDocument('fine-tuned-model-eval', adapter),
      created: now - DAY,
      speed: 1,
    }),
  );
  // The refund desk, shaped like the real support run: 10 steps of 32 tickets x 4, then a base-model evaluation of 32 x 2;
  // older than the Wordle history, so lists newest first and "your latest completed job" still start with Wordle.
  const refund = { global_batch_size: '32', group_size: '4', max_epochs: '5', max_steps: '10', learning_rate: '1e-5' };
  const job = (name: string, category: 'AgentRFT' | 'AgentRFTEvaluation', document: Record<string, unknown>, created: number) =>
    newJob(world, { name, category, roleArn: SEEDED.jobRole, document, created, speed: 1 });
  add(job(SEEDED.refundJob, 'AgentRFT', trainingDocument('refund-desk', refund, REFUND), now - 4.5 * DAY));
  add(job(SEEDED.refundBaseEvaluation, 'AgentRFTEvaluation', evaluationDocument('base-model-eval', undefined, REFUND, '2'), now - 4 * DAY));
  seedRealRunJobs(world, now, add, adapter);
  seedHealthJobs(world, now);
  // The in-progress job is 12 steps into 100 at emulator start: about 11 minutes left at the default speed, so host tests can stop it.
  const sweep = { ...reference, learning_rate: '2e-5' };
  const running = newJob(world, {
    name: SEEDED.inProgressJob,
    category: 'AgentRFT',
    roleArn: SEEDED.jobRole,
    document: trainingDocument('wordle-lr-sweep', sweep),
    created: now,
    ...(runningSpeed ? { speed: runningSpeed } : {}),
  });
  running.created = now - (rolloutPhaseStart(running) - running.created) - 12 * running.plan.stepMs;
  add(running);
}
