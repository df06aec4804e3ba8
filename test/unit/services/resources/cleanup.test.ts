import { strict as assert } from 'node:assert';
import { CreateJobCommand, StopJobCommand } from '@aws-sdk/client-sagemaker';
import type { AwsClients } from '../../../../src/aws/clients';
import { MlflowError } from '../../../../src/aws/mlflow/answers';
import { MlflowClient } from '../../../../src/aws/mlflow/client';
import { parseMlflowArn } from '../../../../src/core/metrics/mlflow';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';
import { describeAwsError } from '../../../../src/aws/errors';
import { ManualClock } from '../../../../src/emulator/clock';
import { SEEDED } from '../../../../src/emulator/seed';
import type { Emulator } from '../../../../src/emulator/server';
import { awsCleanupTarget } from '../../../../src/services/resources/awsTarget';
import { runCleanup, type CleanupProgress } from '../../../../src/services/resources/cleanup';
import { planCleanup } from '../../../../src/services/resources/cleanupPlan';
import { loadInventory } from '../../../../src/services/resources/inventory';
import { trainingDocument, withEmulator } from '../../emulator/helpers';
import { ceiling } from '../../../host/lib/ceiling';

const explain = (e: unknown, action: string) => describeAwsError(e, { action });
const COMPLETED_OUTPUT = `s3://mtrl-demo/output/${SEEDED.completedJob}/`;

async function inventoryOf(aws: AwsClients, clock: ManualClock) {
  return loadInventory(aws, {
    regions: ['us-east-1'],
    pricing: DEFAULT_PRICING,
    now: new Date(clock.now()),
    explain,
  });
}

/** Runs the body against a fresh emulator on a manual clock (jobs keep their state until the test moves time). */
async function withWorld(body: (emulator: Emulator, aws: AwsClients, clock: ManualClock) => Promise<void>): Promise<void> {
  const clock = new ManualClock();
  await withEmulator({ clock }, (emulator, aws) => body(emulator, aws, clock));
}

describe('resources inventory and cleanup against the emulator (real SDK over HTTP)', function () {
  this.timeout(ceiling(60_000));

  it('lists what the seeded jobs left behind, with their jobs, running users and spend', () =>
    withWorld(async (_emulator, aws, clock) => {
      const inventory = await inventoryOf(aws, clock);
      assert.deepEqual(inventory.problems, []);
      const runtime = inventory.runtimes.find((r) => r.ref.id === SEEDED.runtime);
      assert.ok(runtime, 'the seeded runtime is listed');
      assert.equal(runtime.status, 'READY');
      assert.ok(runtime.jobs.includes(SEEDED.completedJob));
      assert.deepEqual(runtime.running, [SEEDED.inProgressJob]);
      assert.equal(inventory.runtimes.find((r) => r.ref.id === SEEDED.noServerRuntime)?.jobs.length, 0);
      const wrongRole = inventory.roles.find((r) => r.ref.id === SEEDED.wrongTrustRole);
      assert.match(wrongRole?.status ?? '', /trusts sagemaker\.amazonaws\.com/);
      assert.deepEqual(wrongRole?.running, []);
      assert.match(inventory.roles.find((r) => r.ref.id === SEEDED.jobRole)?.status ?? '', /^Role trusts job\.sagemaker/);
      assert.deepEqual(
        inventory.mlflowApps.map((a) => [a.ref.id, a.status]),
        [
          [SEEDED.mlflowApp, 'Created · MLflow 3.10.0'],
          [SEEDED.oldMlflowApp, 'Created · MLflow 3.4.0'],
        ],
      );
      const output = inventory.prefixes.find((p) => p.ref.id === 's3://mtrl-demo/output/');
      assert.deepEqual(output?.size, { objects: 3, bytes: 4096 * 2 + '{"steps":100}'.length });
      const child = output?.children?.find((c) => c.ref.id === COMPLETED_OUTPUT);
      assert.deepEqual(child?.jobs, [SEEDED.completedJob], 'a job folder under the output path belongs to that job only');
      assert.deepEqual(child?.running, []);
      assert.deepEqual(output?.running, [SEEDED.inProgressJob], 'the output path itself is in use by the running job');
      // The us-west-2 health jobs (small: 30 steps of 128 rollouts each) add their share.
      assert.ok(inventory.spend.monthToDate > 338 && inventory.spend.monthToDate < 500, String(inventory.spend.monthToDate));
    }));

  it('refuses what a running job uses when planning', () =>
    withWorld(async (_emulator, aws, clock) => {
      const plan = planCleanup(await inventoryOf(aws, clock), [
        { kind: 'runtime', id: SEEDED.runtime },
        { kind: 's3Prefix', id: COMPLETED_OUTPUT },
      ]);
      assert.deepEqual(
        plan.steps.map((s) => s.item.ref.id),
        [COMPLETED_OUTPUT],
      );
      assert.match(plan.refused[0].reason, new RegExp(`used by running job ${SEEDED.inProgressJob}`));
    }));

  it('checks again just before each delete: a job started after the plan keeps its runtime; the role goes after its policies', () =>
    withWorld(async (emulator, aws, clock) => {
      const plan = planCleanup(await inventoryOf(aws, clock), [
        { kind: 'runtime', id: SEEDED.noServerRuntime },
        { kind: 'role', id: SEEDED.wrongTrustRole },
      ]);
      assert.equal(plan.steps.length, 2);
      await aws.sagemaker().send(
        new CreateJobCommand({
          JobName: 'started-after-plan',
          JobCategory: 'AgentRFT',
          RoleArn: SEEDED.jobRole,
          JobConfigSchemaVersion: '1.0.0',
          JobConfigDocument: JSON.stringify(trainingDocument({}, SEEDED.noServerRuntime)),
        }),
      );
      const result = await runCleanup(plan, awsCleanupTarget(aws, ['us-east-1'], explain), () => undefined);
      assert.deepEqual(
        result.deleted.map((i) => i.ref.id),
        [SEEDED.wrongTrustRole],
      );
      assert.equal(result.remaining.length, 1);
      assert.match(result.remaining[0].reason, /used by running job started-after-plan/);
      assert.ok(
        emulator.world.runtimes.some((r) => r.arn === SEEDED.noServerRuntime),
        'the runtime is still there',
      );
      assert.equal(emulator.world.roles.has('MtrlWrongTrustRole'), false);
      assert.equal(emulator.requests.get('iam:DetachRolePolicy'), 1);
      assert.equal(emulator.requests.get('iam:DeleteRole'), 1, 'IAM accepted the delete at the first try: the policy was detached first');
    }));

  it('ends a partial failure with what remains and why, after deleting the rest', () =>
    withWorld(async (emulator, aws, clock) => {
      emulator.world.undeletableKeys.add(`mtrl-demo/output/${SEEDED.completedJob}/manifest.json`);
      const plan = planCleanup(await inventoryOf(aws, clock), [
        { kind: 's3Prefix', id: COMPLETED_OUTPUT },
        { kind: 'runtime', id: SEEDED.errorStatusRuntime },
      ]);
      const result = await runCleanup(plan, awsCleanupTarget(aws, ['us-east-1'], explain), () => undefined);
      assert.deepEqual(
        result.deleted.map((i) => i.ref.id),
        [SEEDED.errorStatusRuntime],
      );
      assert.equal(result.remaining.length, 1);
      assert.match(result.remaining[0].reason, /1 of 3 objects could not be deleted \(e\.g\. output\/.*manifest\.json: AccessDenied/);
      const left = [...(emulator.world.buckets.get('mtrl-demo')?.keys() ?? [])].filter((k) =>
        k.startsWith(`output/${SEEDED.completedJob}/`),
      );
      assert.deepEqual(left, [`output/${SEEDED.completedJob}/manifest.json`]);
    }));

  it('deletes a prefix of 2,503 objects in three calls of at most 1,000 keys, with progress', () =>
    withWorld(async (emulator, aws, clock) => {
      const bucket = emulator.world.buckets.get('mtrl-demo');
      for (let i = 0; i < 2500; i++)
        bucket?.set(`output/${SEEDED.completedJob}/rollouts/${String(i).padStart(5, '0')}.json`, {
          body: Buffer.from('{}'),
          lastModified: clock.now(),
          etag: '"x"',
        });
      const plan = planCleanup(await inventoryOf(aws, clock), [{ kind: 's3Prefix', id: COMPLETED_OUTPUT }]);
      assert.match(plan.steps[0].action, /2503 objects .* in 3 call/);
      const before = emulator.requests.get('s3:POST') ?? 0;
      const progress: CleanupProgress[] = [];
      const result = await runCleanup(plan, awsCleanupTarget(aws, ['us-east-1'], explain), (p) => progress.push(p));
      assert.equal(result.remaining.length, 0);
      assert.equal((emulator.requests.get('s3:POST') ?? 0) - before, 3);
      assert.ok(
        progress.some((p) => /objects 2001–2503 of 2503/.test(p.message)),
        progress.map((p) => p.message).join('\n'),
      );
      assert.equal([...(bucket?.keys() ?? [])].filter((k) => k.startsWith(`output/${SEEDED.completedJob}/`)).length, 0);
    }));

  it('stops between batches when cancelled: the call already sent is answered and counted, the next one never goes', () =>
    withWorld(async (emulator, aws, clock) => {
      const bucket = emulator.world.buckets.get('mtrl-demo');
      for (let i = 0; i < 2500; i++)
        bucket?.set(`output/${SEEDED.completedJob}/rollouts/${String(i).padStart(5, '0')}.json`, {
          body: Buffer.from('{}'),
          lastModified: clock.now(),
          etag: '"x"',
        });
      const plan = planCleanup(await inventoryOf(aws, clock), [
        { kind: 's3Prefix', id: COMPLETED_OUTPUT },
        { kind: 'runtime', id: SEEDED.noServerRuntime },
      ]);
      const controller = new AbortController();
      const result = await runCleanup(
        plan,
        awsCleanupTarget(aws, ['us-east-1'], explain),
        (p) => {
          if (/objects 1–1000 /.test(p.message)) controller.abort();
        },
        controller.signal,
      );
      assert.equal(result.stopped, 'cancel');
      assert.deepEqual(
        result.remaining.map((r) => r.reason),
        ['cancelled: 1000 of 2503 objects deleted, 1503 left', 'not deleted: the cleanup was cancelled first'],
      );
      assert.equal(result.remaining[0].deletedKeys?.length, 1000, 'the keys that went are reported, each once');
      const left = [...(bucket?.keys() ?? [])].filter((k) => k.startsWith(`output/${SEEDED.completedJob}/`)).length;
      assert.equal(left, 1503, 'the call already sent went through and was counted, the next one never went');
    }));

  it('deletes an MLflow app once no running job logs to it, with the history warning in the plan', () =>
    withWorld(async (emulator, aws, clock) => {
      const mlflow = new MlflowClient(parseMlflowArn(SEEDED.mlflowApp)!, {
        credentials: async () => ({ accessKeyId: 'test', secretAccessKey: 'test' }),
        endpoint: emulator.url,
        maxAttempts: 1,
      });
      assert.ok(await mlflow.experimentByName('wordle'), 'the history is there before the delete');
      await aws.sagemaker().send(new StopJobCommand({ JobName: SEEDED.inProgressJob, JobCategory: 'AgentRFT' }));
      clock.advance(60 * 60_000);
      const plan = planCleanup(await inventoryOf(aws, clock), [{ kind: 'mlflowApp', id: SEEDED.mlflowApp }]);
      assert.deepEqual(plan.refused, []);
      assert.match(plan.steps[0].warning ?? '', /deletes its experiment history/);
      const result = await runCleanup(plan, awsCleanupTarget(aws, ['us-east-1'], explain), () => undefined);
      assert.deepEqual(result.remaining, []);
      assert.deepEqual(
        emulator.world.mlflowApps.map((a) => a.arn).filter((arn) => arn === SEEDED.mlflowApp),
        [],
        'the deleted app is gone',
      );
      const gone = await mlflow.experimentByName('wordle').catch((e: unknown) => e);
      assert.ok(gone instanceof MlflowError && gone.status === 404, 'the experiment history went with the app');
    }));
});
