import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { IAMClient, ListAttachedRolePoliciesCommand } from '@aws-sdk/client-iam';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateJobCommand, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { main } from '../../../src/cli';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../../src/emulator/server';
import { trainingDocument } from '../emulator/helpers';
import { ceiling } from '../../host/lib/ceiling';

const root = path.resolve(__dirname, '../../..');
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
const COMPLETED_OUTPUT = `s3://mtrl-demo/output/${SEEDED.completedJob}/`;

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

/** Every key of the demo bucket under `prefix`, listed over the real SDK (what a user would see afterwards). */
async function keysUnder(emulator: Emulator, prefix: string): Promise<string[]> {
  const s3 = new S3Client({ region: 'us-east-1', endpoint: emulator.url, forcePathStyle: true, credentials });
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: 'mtrl-demo', Prefix: prefix, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.NextContinuationToken;
  } while (token);
  s3.destroy();
  return keys;
}

/** A job created over the SDK in `region`, with a runtime of its own there (the job and the runtime must share a region). */
async function createJob(emulator: Emulator, region: string, name: string, document: Record<string, unknown>): Promise<void> {
  const seeded = emulator.world.runtimes.find((r) => r.arn === SEEDED.runtime)!;
  const arn = SEEDED.runtime.replace('us-east-1', region);
  if (!emulator.world.runtimes.some((r) => r.arn === arn)) emulator.world.runtimes.push({ ...seeded, arn, region });
  const agent = { BedrockAgentCoreConfig: { AgentRuntimeArn: arn, Qualifier: 'DEFAULT' } };
  const sagemaker = new SageMakerClient({ region, endpoint: emulator.url, credentials });
  await sagemaker.send(
    new CreateJobCommand({
      JobName: name,
      JobCategory: 'AgentRFT',
      RoleArn: SEEDED.jobRole,
      JobConfigSchemaVersion: '1.0.0',
      JobConfigDocument: JSON.stringify({ ...document, AgentConfig: agent }),
    }),
  );
  sagemaker.destroy();
}

/** 3,002 more objects under the completed job's output folder: four DeleteObjects calls. */
function fillOutput(emulator: Emulator, clock: ManualClock): void {
  const bucket = emulator.world.buckets.get('mtrl-demo')!;
  for (let i = 0; i < 3002; i++)
    bucket.set(`output/${SEEDED.completedJob}/rollouts/${String(i).padStart(5, '0')}.json`, {
      body: Buffer.from('{}'),
      lastModified: clock.now(),
      etag: '"x"',
    });
}

describe('mtrl cleanup: nothing in use is lost (emulator, real SDK over HTTP)', function () {
  this.timeout(ceiling(90_000));
  let emulator: Emulator;
  let clock: ManualClock;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  async function start(options: EmulatorOptions = {}): Promise<void> {
    clock = new ManualClock();
    emulator = await startEmulator({ clock, ...options });
  }

  beforeEach(() => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
  });

  afterEach(async () => {
    await emulator?.close();
    process.env.AWS_ACCESS_KEY_ID = saved.id;
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  it('refuses a prefix a running job of another region writes to (--region us-east-1, job in us-west-2), naming job and region', async () => {
    await start();
    await createJob(emulator, 'us-west-2', 'west-sweep', {
      ...trainingDocument({}),
      OutputDataConfig: { S3OutputPath: 's3://mtrl-demo/eval-output' },
    });
    const before = await keysUnder(emulator, 'eval-output/');
    const { code, out } = await run('cleanup', 's3://mtrl-demo/eval-output/', '--region', 'us-east-1', '--yes', '--endpoint', emulator.url);
    assert.equal(code, 1, out);
    assert.match(out, /^Checked the jobs of us-east-1, us-west-2/);
    assert.match(out, /S3 prefix s3:\/\/mtrl-demo\/eval-output\/: used by running job west-sweep in us-west-2/);
    assert.deepEqual(await keysUnder(emulator, 'eval-output/'), before);
    assert.ok(before.length >= 2);
  });

  it('refuses a role running jobs of us-east-1 use when asked with --region us-west-2, and detaches none of its policies', async () => {
    await start();
    // A us-west-2 job that used the role and failed: the role is what that region's jobs left behind.
    const sagemaker = new SageMakerClient({ region: 'us-west-2', endpoint: emulator.url, credentials });
    await sagemaker.send(
      new CreateJobCommand({
        JobName: 'west-failed',
        JobCategory: 'AgentRFT',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(trainingDocument({})),
      }),
    );
    sagemaker.destroy();
    clock.advance(10 * 60_000);
    const listed = JSON.parse((await run('resources', '--region', 'us-west-2', '--endpoint', emulator.url, '--json')).out);
    assert.deepEqual(
      listed.jobs.filter((j: { name: string }) => j.name === 'west-failed').map((j: { status: string }) => j.status),
      ['Failed'],
    );
    const { code, out } = await run('cleanup', SEEDED.jobRole, '--region', 'us-west-2', '--yes', '--endpoint', emulator.url);
    assert.equal(code, 1, out);
    // The seeded stalled health job in us-west-2 uses the role too while it runs.
    assert.match(out, new RegExp(`role MtrlJobRole: used by running jobs? [^;]*${SEEDED.inProgressJob}[^;]*us-east-1`));
    const iam = new IAMClient({ region: 'us-east-1', endpoint: emulator.url, credentials });
    const attached = await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: 'MtrlJobRole' }));
    iam.destroy();
    assert.deepEqual(
      attached.AttachedPolicies?.map((p) => p.PolicyName),
      ['AmazonSageMakerJobFullAccess'],
    );
    assert.equal(emulator.requests.get('iam:DetachRolePolicy') ?? 0, 0);
  });

  it('a dataset at the bucket root offers no bucket: a sibling folder and the bucket itself are refused as never used', async () => {
    await start();
    const s3 = new S3Client({ region: 'us-east-1', endpoint: emulator.url, forcePathStyle: true, credentials });
    await s3.send(new PutObjectCommand({ Bucket: 'mtrl-demo', Key: 'root-val.jsonl', Body: '{"prompt":"x"}\n' }));
    await s3.send(new PutObjectCommand({ Bucket: 'mtrl-demo', Key: 'other-team/model.bin', Body: 'theirs' }));
    s3.destroy();
    const document = trainingDocument({});
    await createJob(emulator, 'us-east-1', 'root-reader', {
      ...document,
      InputDataConfig: [
        { ChannelName: 'validation', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: 's3://mtrl-demo/root-val.jsonl' } } },
      ],
    });
    const listed = JSON.parse((await run('resources', '--endpoint', emulator.url, '--json')).out);
    const offered = (listed.prefixes as Array<{ ref: { id: string }; children?: Array<{ ref: { id: string } }> }>).flatMap((p) => [
      p.ref.id,
      ...(p.children ?? []).map((c) => c.ref.id),
    ]);
    assert.ok(!offered.includes('s3://mtrl-demo/'), offered.join(', '));
    assert.ok(!offered.some((id) => id.includes('other-team')), offered.join(', '));

    const sibling = await run('cleanup', 's3://mtrl-demo/other-team/', '--yes', '--endpoint', emulator.url);
    assert.equal(sibling.code, 1, sibling.out + sibling.err);
    assert.match(sibling.out, /other-team\/: this folder was never used by a job of us-east-1, us-west-2/);
    const bucket = await run('cleanup', 's3://mtrl-demo', '--yes', '--endpoint', emulator.url);
    assert.equal(bucket.code, 1);
    assert.match(bucket.out, /a whole bucket is never cleaned up/);
    assert.deepEqual(await keysUnder(emulator, 'other-team/'), ['other-team/model.bin']);
    assert.equal(emulator.requests.get('s3:POST') ?? 0, 0, 'no DeleteObjects call was sent');
  });

  it('refuses roles and S3 prefixes while one region cannot be read, but deletes an unused runtime of a readable region', async () => {
    await start({ deniedRegions: ['us-west-2'] });
    const { code, out, err } = await run('cleanup', SEEDED.wrongTrustRole, SEEDED.errorStatusRuntime, '--yes', '--endpoint', emulator.url);
    assert.equal(code, 1, out + err);
    assert.match(out, /role MtrlWrongTrustRole: not proven unused: the jobs of us-west-2 could not be read \(.*access denied/);
    assert.match(out, /roles and S3 prefixes are account-wide, so the running jobs of every region must be known/);
    assert.match(out, /deleted agent runtime wordle_agent_error_status/);
    assert.equal(emulator.world.roles.has('MtrlWrongTrustRole'), true);
  });

  it('a target named twice (once without its slash) is deleted and reported once', async () => {
    await start();
    const prefix = COMPLETED_OUTPUT;
    const { code, out } = await run('cleanup', prefix, prefix.slice(0, -1), prefix, '--yes', '--json', '--endpoint', emulator.url);
    assert.equal(code, 0, out);
    const result = JSON.parse(out);
    assert.deepEqual(
      result.deleted.map((d: { id: string; objects: number }) => [d.id, d.objects]),
      [[prefix, 3]],
    );
    assert.equal(result.objectsDeleted, 3);
    assert.deepEqual(result.regionsChecked, ['us-east-1', 'us-west-2']);
  });

  it('--deadline mid-deletion stops between calls and --json reports exactly the keys deleted', async () => {
    // Listing takes well under a second here; the deadline then falls during the second or third call of four. Both
    // stretch with the load (x1 on an idle machine), so a slow listing never eats the whole deadline.
    const stretch = ceiling(1_000) / 2_000;
    await start({ deleteLatencyMs: Math.round(2_000 * stretch) });
    fillOutput(emulator, clock);
    const deadline = String(Math.ceil(5 * stretch));
    const { code, out, err } = await run(
      'cleanup',
      COMPLETED_OUTPUT,
      '--yes',
      '--json',
      '--deadline',
      deadline,
      '--endpoint',
      emulator.url,
    );
    assert.equal(code, 2, err);
    const result = JSON.parse(out);
    assert.equal(result.stopped, 'deadline');
    const [partial] = result.remaining;
    const left = await keysUnder(emulator, `output/${SEEDED.completedJob}/`);
    assert.ok(partial.objectsDeleted > 0 && partial.objectsDeleted < 3005, String(partial.objectsDeleted));
    assert.equal(partial.objectsDeleted, 3005 - left.length, 'the count is what S3 lost, exactly');
    assert.equal(result.objectsDeleted, partial.objectsDeleted);
    assert.equal(new Set(partial.keysDeleted).size, partial.objectsDeleted);
    assert.ok(
      partial.keysDeleted.every((k: string) => !left.includes(k)),
      'every key reported deleted is gone',
    );
    assert.match(err, /mtrl cleanup: Stopped at the deadline: deleted 0 resources and \d+ S3 objects in all\./);
  });

  it('a deadline before the plan is made says nothing was deleted, in --json too', async () => {
    await start({ latencyMs: 1_500 });
    const { code, out } = await run(
      'cleanup',
      COMPLETED_OUTPUT,
      SEEDED.wrongTrustRole,
      '--yes',
      '--json',
      '--deadline',
      '1',
      '--endpoint',
      emulator.url,
    );
    assert.equal(code, 2);
    const result = JSON.parse(out);
    assert.equal(result.stopped, 'deadline');
    assert.equal(result.objectsDeleted, 0);
    assert.deepEqual(result.deleted, []);
    assert.deepEqual(
      result.remaining.map((r: { id: string; reason: string }) => [r.id, r.reason]),
      [COMPLETED_OUTPUT, SEEDED.wrongTrustRole].map((id) => [
        id,
        'not deleted: the cleanup was stopped at the deadline before it deleted anything',
      ]),
    );
    assert.equal((await keysUnder(emulator, `output/${SEEDED.completedJob}/`)).length, 3);
  });

  it('Ctrl-C (SIGINT to the process) lets the call in flight answer, then reports exactly what went', async () => {
    await start({ deleteLatencyMs: 1_500 });
    fillOutput(emulator, clock);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'src/cli.ts'), 'cleanup', COMPLETED_OUTPUT, '--yes', '--json'],
      {
        cwd: root,
        env: { ...process.env, AWS_ENDPOINT_URL: emulator.url, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    while (!emulator.requests.get('s3:POST')) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGINT');
    const code = await closed;
    assert.equal(code, 2, stderr);
    assert.match(stderr, /Stopping after the call in flight/);
    const result = JSON.parse(stdout);
    assert.equal(result.stopped, 'cancel');
    assert.equal(result.remaining[0].objectsDeleted, 1000, 'the first call was in flight: it answered, and no other was sent');
    assert.match(result.remaining[0].reason, /^cancelled: 1000 of 3005 objects deleted, 2005 left/);
    assert.equal((await keysUnder(emulator, `output/${SEEDED.completedJob}/`)).length, 2005);
    assert.equal(emulator.requests.get('s3:POST'), 1);
  });
});
