import assert from 'node:assert/strict';
import { AwsClients } from '../../../src/aws/clients';
import { describeAwsError } from '../../../src/aws/errors';
import { filterLogEvents, getLogEvents } from '../../../src/aws/logs';
import { getObject, headObject, listObjectsV2, upload } from '../../../src/aws/s3';
import { createJob, describeJob, listJobs } from '../../../src/aws/sagemaker';
import { callerIdentity } from '../../../src/aws/sts';
import { getRole } from '../../../src/aws/iam';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../../src/emulator/server';

const RUNTIME_GROUP = '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT';

function trainingDocument(steps: string): string {
  return JSON.stringify({
    AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: SEEDED.runtime, Qualifier: 'DEFAULT' } },
    InputDataConfig: [{ ChannelName: 'train', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: SEEDED.train } } }],
    OutputDataConfig: { S3OutputPath: 's3://mtrl-demo/output' },
    TrainingConfig: {
      BaseModelArn: 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b',
      AcceptEula: true,
      HyperParameters: { max_steps: steps },
    },
  });
}

async function withEmulator(
  options: EmulatorOptions,
  body: (emulator: Emulator, aws: AwsClients) => Promise<void>,
  maxAttempts?: number,
): Promise<void> {
  const emulator = await startEmulator(options);
  const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url, maxAttempts }));
  try {
    await body(emulator, aws);
  } finally {
    aws.reset();
    await emulator.close();
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

before(() => {
  // The loopback fallback credentials are what these tests use: no real AWS identity may leak in.
  process.env.AWS_ACCESS_KEY_ID = 'test';
  process.env.AWS_SECRET_ACCESS_KEY = 'test';
});

describe('AWS wrappers against the emulator over HTTP', () => {
  it('pages through 250 jobs with NextToken, newest first, and filters them', async () => {
    const clock = new ManualClock();
    await withEmulator({ history: false, clock }, async (emulator, aws) => {
      const sm = aws.sagemaker();
      for (let i = 0; i < 250; i++) {
        clock.advance(1000);
        await createJob(sm, {
          JobName: `paging-${String(i).padStart(3, '0')}`,
          JobCategory: 'AgentRFT',
          RoleArn: SEEDED.jobRole,
          JobConfigSchemaVersion: '1.0.0',
          JobConfigDocument: trainingDocument('3'),
        });
      }
      const all = await collect(listJobs(sm, { JobCategory: 'AgentRFT', MaxResults: 100 }));
      assert.equal(all.length, 250);
      assert.equal(new Set(all.map((j) => j.JobName)).size, 250);
      assert.equal(all[0].JobName, 'paging-249');
      assert.equal(all[249].JobName, 'paging-000');
      assert.equal(emulator.requests.get('sagemaker:ListJobs'), 3);
      const byName = await collect(listJobs(sm, { JobCategory: 'AgentRFT', NameContains: '-12', SortBy: 'Name', SortOrder: 'Ascending' }));
      assert.deepEqual(
        byName.map((j) => j.JobName),
        Array.from({ length: 10 }, (_, i) => `paging-12${i}`),
      );
      const completed = await collect(listJobs(sm, { JobCategory: 'AgentRFT', StatusEquals: 'Completed' }));
      const running = await collect(listJobs(sm, { JobCategory: 'AgentRFT', StatusEquals: 'InProgress' }));
      assert.ok(completed.every((j) => j.JobStatus === 'Completed') && running.every((j) => j.JobStatus === 'InProgress'));
      assert.ok(completed.length > 0 && running.length > 0, 'the oldest small jobs finished, the newest still run');
      assert.equal(completed.length + running.length, 250);
      assert.equal((await collect(listJobs(sm, { JobCategory: 'AgentRFTEvaluation' }))).length, 0);
    });
  });

  it('a throttled call succeeds after the SDK retries it, and fails with a throttling sentence without retries', async () => {
    await withEmulator({ throttleRate: 0.5 }, async (emulator, aws) => {
      const me = await callerIdentity(aws.sts());
      assert.equal(me.account, '111122223333');
      const jobs = await collect(listJobs(aws.sagemaker(), { JobCategory: 'AgentRFT' }));
      assert.equal(jobs.length, 4, 'the seeded training jobs');
      assert.equal(emulator.requests.get('sagemaker:ListJobs'), 2, 'one throttled attempt, one retry');
    });
    await withEmulator(
      { throttleRate: 1 },
      async (_emulator, aws) => {
        const pages = listJobs(aws.sagemaker(), { JobCategory: 'AgentRFT' });
        const error = await pages[Symbol.asyncIterator]()
          .next()
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        assert.equal((error as Error).name, 'ThrottlingException');
        assert.match(describeAwsError(error), /throttling requests \(still throttled after 2 attempts\)/);
      },
      2,
    );
  });

  it('a call that meets a 500 succeeds after the SDK retries it', async () => {
    await withEmulator({ errorRate: 0.5 }, async (emulator, aws) => {
      const job = await describeJob(aws.sagemaker(), { jobName: SEEDED.completedJob, category: 'AgentRFT' });
      assert.equal(job.JobStatus, 'Completed');
      assert.equal(emulator.requests.get('sagemaker:DescribeJob'), 2);
    });
  });

  it('expired credentials produce the refresh sentence naming the profile', async () => {
    await withEmulator({ expiredCredentials: true }, async (_emulator, aws) => {
      const error = await describeJob(aws.sagemaker(), { jobName: SEEDED.completedJob, category: 'AgentRFT' }).catch((e: unknown) => e);
      assert.equal((error as Error).name, 'ExpiredTokenException');
      const sentence = describeAwsError(error, { profile: 'ml-sso' });
      assert.match(sentence, /credentials of profile 'ml-sso' have expired/);
      assert.match(sentence, /aws sso login --profile ml-sso/);
      const s3Error = await collect(listObjectsV2(aws.s3(), 'mtrl-demo')).catch((e: unknown) => e);
      assert.equal((s3Error as Error).name, 'ExpiredToken');
      assert.match(describeAwsError(s3Error, { profile: 'ml-sso' }), /aws sso login --profile ml-sso/);
    });
  });

  it('cancellation stops a long FilterLogEvents scan', async () => {
    await withEmulator({}, async (emulator, aws) => {
      const controller = new AbortController();
      let seen = 0;
      const scan = (async () => {
        for await (const event of filterLogEvents(
          aws.logs(),
          { logGroupName: RUNTIME_GROUP, filterPattern: 'UpdateReward', pageSize: 100 },
          controller.signal,
        )) {
          assert.match(event.message ?? '', /^UpdateReward: trajectory_id=\S+ rewards=\[-?[\d.]+\]$/);
          if (++seen === 250) controller.abort();
        }
      })();
      await assert.rejects(scan, (e: Error) => e.name === 'AbortError');
      const pages = emulator.requests.get('logs:FilterLogEvents') ?? 0;
      assert.equal(seen, 250);
      assert.equal(pages, 3, 'the scan of 100,000+ rollouts stopped after the third page');
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(emulator.requests.get('logs:FilterLogEvents'), pages);
    });
  });

  it('reads a log stream to its end with GetLogEvents forward tokens', async () => {
    await withEmulator({}, async (_emulator, aws) => {
      const stream = `${SEEDED.failedJob}/`;
      const groups = await collect(
        filterLogEvents(aws.logs(), { logGroupName: '/aws/sagemaker/Job/AgentRFT', logStreamNamePrefix: stream }),
      );
      assert.ok(groups.some((e) => /Could not assume role/.test(e.message ?? '')));
      const name = groups[0].logStreamName as string;
      const events = await collect(getLogEvents(aws.logs(), { logGroupName: '/aws/sagemaker/Job/AgentRFT', logStreamName: name }));
      assert.equal(events.length, groups.length);
    });
  });

  it('uploads multipart with progress, reads ranges, lists objects, and aborts an upload', async () => {
    await withEmulator({}, async (_emulator, aws) => {
      const s3 = aws.s3();
      const body = Buffer.alloc(11 * 1024 * 1024, 'abcdefgh');
      const progress: number[] = [];
      await upload(s3, { bucket: 'mtrl-demo', key: 'uploads/big.jsonl' }, body, {
        partSize: 5 * 1024 * 1024,
        onProgress: (loaded) => progress.push(loaded),
      });
      assert.equal(progress[progress.length - 1], body.length);
      assert.equal((await headObject(s3, { bucket: 'mtrl-demo', key: 'uploads/big.jsonl' })).size, body.length);
      const chunks = await collect(getObject(s3, { bucket: 'mtrl-demo', key: 'uploads/big.jsonl' }, 'bytes=8-15'));
      assert.equal(Buffer.concat(chunks).toString(), 'abcdefgh');
      const keys = (await collect(listObjectsV2(s3, 'mtrl-demo'))).map((o) => o.Key);
      assert.deepEqual(
        keys.filter((k) => /^(uploads|wordle)\//.test(k ?? '')),
        ['uploads/big.jsonl', 'wordle/train.jsonl', 'wordle/val.jsonl'],
      );
      assert.ok(keys.includes('output/wordle-gptoss20b-grpo-100steps/manifest.json'), 'the seeded job output is listed too');
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(upload(s3, { bucket: 'mtrl-demo', key: 'uploads/never.jsonl' }, body, { signal: controller.signal }));
      assert.equal((await collect(listObjectsV2(s3, 'mtrl-demo', 'uploads/never'))).length, 0);
    });
  });

  it('reads the job role with its trust policy decoded', async () => {
    await withEmulator({}, async (_emulator, aws) => {
      const role = await getRole(aws.iam(), 'MtrlJobRole');
      assert.equal(role.arn, SEEDED.jobRole);
      assert.deepEqual(role.trustPolicy?.Statement?.[0].Action, ['sts:AssumeRole', 'sts:TagSession']);
      const missing = await getRole(aws.iam(), 'NoSuchRole').catch((e: unknown) => e);
      assert.equal((missing as Error).name, 'NoSuchEntityException');
    });
  });

  it('names the endpoint when nothing listens there', async () => {
    const emulator = await startEmulator({ history: false });
    await emulator.close();
    const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url, maxAttempts: 1 }));
    const error = await callerIdentity(aws.sts()).catch((e: unknown) => e);
    aws.reset();
    assert.match(
      describeAwsError(error, { endpoint: emulator.url }),
      new RegExp(`cannot reach ${emulator.url.replace(/\./g, '\\.')} \\(ECONNREFUSED\\)`),
    );
  });
});
