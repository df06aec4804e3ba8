import assert from 'node:assert/strict';
import { markGuess } from '../../../src/core/environments/wordle';
import { filterLogEvents } from '../../../src/aws/logs';
import { upload } from '../../../src/aws/s3';
import { ListJobsCommand } from '@aws-sdk/client-sagemaker';
import { createJob, deleteJob, describeJob, listJobs, stopJob } from '../../../src/aws/sagemaker';
import type { JobRef } from '../../../src/core/jobs/reference';
import type { AwsClients } from '../../../src/aws/clients';
import { ManualClock } from '../../../src/emulator/clock';
import { TOKENS_PER_ROLLOUT } from '../../../src/emulator/jobs';
import { SEEDED } from '../../../src/emulator/seed';
import { TRAIN_ANSWERS } from '../../../src/emulator/answers';
import { collect, createTrainingJob, evaluationDocument, trainingDocument, withEmulator } from './helpers';

const RUNTIME_GROUP = '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT';
const MINUTE = 60_000;

async function recordsOf(aws: AwsClients, jobName: string) {
  const events = await collect(
    filterLogEvents(aws.logs(), { logGroupName: RUNTIME_GROUP, logStreamNamePrefix: '', filterPattern: `"job/AgentRFT/${jobName}"` }),
  );
  return events.map(
    (e) =>
      JSON.parse(e.message ?? '') as {
        mtrl_rollout: number;
        trajectory_id: string;
        answer: string;
        row_id: string;
        turns: { guess: string; marks?: string; valid?: boolean; source: string }[];
        solved: boolean;
        reward: number;
        outcome: number;
        shaping: number;
      },
  );
}

async function create(
  aws: AwsClients,
  name: string,
  hyperParameters: Record<string, string>,
  roleArn = SEEDED.jobRole,
  runtime = SEEDED.runtime,
): Promise<JobRef> {
  await createJob(aws.sagemaker(), {
    JobName: name,
    JobCategory: 'AgentRFT',
    RoleArn: roleArn,
    JobConfigSchemaVersion: '1.0.0',
    JobConfigDocument: JSON.stringify(trainingDocument(hyperParameters, runtime)),
  });
  return { jobName: name, category: 'AgentRFT' };
}

describe('emulator: job lifecycle on an injected clock', () => {
  it('at the very millisecond training would begin, a job is InProgress, not Completed without its RolloutInfo', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (_emulator, aws) => {
      const job = await create(aws, 'boundary-run', { global_batch_size: '32', group_size: '2', max_steps: '3' });
      // At the default speed (60x) Starting (90 s) and Downloading (120 s) take 1.5 s and 2 s: training begins at 3.5 s.
      clock.advance(3_500);
      const d = await describeJob(aws.sagemaker(), job);
      assert.equal(d.JobStatus, 'InProgress', JSON.stringify(d.SecondaryStatusTransitions));
      clock.advance(1);
      assert.equal((await describeJob(aws.sagemaker(), job)).SecondaryStatus, 'Training');
    });
  });

  it('a stop at the very millisecond a phase ends stops the job (it stayed InProgress for ever)', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (_emulator, aws) => {
      const job = await create(aws, 'stop-at-boundary', { global_batch_size: '32', group_size: '2', max_steps: '3' });
      // At 60x Starting (90 s) ends at 1.5 s: the stop lands on the boundary between Starting and Downloading.
      clock.advance(1_500);
      await stopJob(aws.sagemaker(), job);
      assert.equal((await describeJob(aws.sagemaker(), job)).JobStatus, 'Stopping');
      // Stopping takes 45 s at 60x.
      clock.advance(750);
      const d = await describeJob(aws.sagemaker(), job);
      assert.equal(d.JobStatus, 'Stopped');
      assert.deepEqual(
        d.SecondaryStatusTransitions?.map((t) => t.Status),
        ['Starting', 'Stopping', 'Stopped'],
      );
    });
  });

  it('a job completes, and its rollout records, RolloutInfo and token usage agree at every point', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (_emulator, aws) => {
      // 640 rows / 32 = 20 steps per epoch; max_steps 3 ends it: 3 × 32 × 2 = 192 rollouts.
      const job = await create(aws, 'small-run', { global_batch_size: '32', group_size: '2', max_steps: '3' });
      let d = await describeJob(aws.sagemaker(), job);
      assert.equal(d.JobStatus, 'InProgress');
      assert.equal(d.SecondaryStatus, 'Starting');
      assert.equal(d.config?.ServiceOutput?.RolloutInfo, undefined, 'no rollouts before training');
      for (const minutes of [3.9, 1, 1, 20]) {
        clock.advance(minutes * MINUTE);
        d = await describeJob(aws.sagemaker(), job);
        const out = d.config?.ServiceOutput;
        const records = await recordsOf(aws, 'small-run');
        assert.equal(records.length, out?.RolloutInfo?.Completed ?? 0, `records = RolloutInfo.Completed at ${d.SecondaryStatus}`);
        const done = out?.RolloutInfo?.Completed ?? 0;
        if (out?.BillableTokenUsage) {
          assert.deepEqual(out.BillableTokenUsage, {
            TrainTokenCount: done * TOKENS_PER_ROLLOUT.train,
            PrefillTokenCount: done * TOKENS_PER_ROLLOUT.prefill,
            SampleTokenCount: done * TOKENS_PER_ROLLOUT.sample,
          });
        }
      }
      assert.equal(d.JobStatus, 'Completed');
      assert.deepEqual(
        d.SecondaryStatusTransitions?.map((t) => t.Status),
        ['Starting', 'Downloading', 'Training', 'Uploading', 'Completed'],
      );
      assert.deepEqual(d.config?.ServiceOutput?.ProgressInfo, { MaxSteps: 3, CurrentStep: 3 });
      assert.deepEqual(d.config?.ServiceOutput?.RolloutInfo, { Total: 192, Completed: 192 });
      assert.match(d.config?.ServiceOutput?.OutputModelPackageArn ?? '', /model-package\/small-run-adapter\/1$/);
      const records = await recordsOf(aws, 'small-run');
      assert.equal(records.length, 192);
      assert.equal(new Set(records.map((r) => r.trajectory_id)).size, 192);
      for (const r of records) {
        assert.ok(TRAIN_ANSWERS.includes(r.answer), 'answers come from the uploaded dataset');
        for (const t of r.turns) if (t.valid !== false) assert.equal(t.marks, markGuess(t.guess, r.answer));
        assert.equal(
          r.solved,
          r.turns.some((t) => t.marks === 'GGGGG'),
        );
        if (r.solved) assert.ok(r.reward >= 1.01);
        else if (r.turns.some((t) => t.valid !== false)) assert.ok(r.reward <= -0.35 && r.reward < 0);
        else assert.equal(r.reward, -1.5);
      }
      // A GRPO group: two rollouts of the same row.
      const rows = new Map<string, number>();
      for (const r of records) rows.set(r.row_id, (rows.get(r.row_id) ?? 0) + 1);
      assert.ok([...rows.values()].every((n) => n === 2));
      const rewards = await collect(filterLogEvents(aws.logs(), { logGroupName: RUNTIME_GROUP, filterPattern: 'UpdateReward' }));
      const byId = new Map(records.map((r) => [r.trajectory_id, r.reward]));
      const mine = rewards.filter((e) => byId.has(/trajectory_id=(\S+)/.exec(e.message ?? '')?.[1] ?? ''));
      assert.equal(mine.length, 192);
      for (const e of mine) {
        const [, id, reward] = /trajectory_id=(\S+) rewards=\[(-?[\d.]+)\]/.exec(e.message ?? '') ?? [];
        assert.equal(Number(reward), byId.get(id));
      }
    });
  });

  it('plays a mix: solves in several guess counts, losses, invalid and raw-text guesses, no-plays', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (_emulator, aws) => {
      await create(aws, 'mix', { global_batch_size: '64', group_size: '8', max_steps: '2' });
      clock.advance(60 * MINUTE);
      const records = await recordsOf(aws, 'mix');
      assert.equal(records.length, 1024);
      const solvedIn = new Set(records.filter((r) => r.solved).map((r) => r.turns.filter((t) => t.valid !== false).length));
      for (const n of [2, 3, 4, 5, 6]) assert.ok(solvedIn.has(n), `a solve in ${n}`);
      assert.ok(
        records.some((r) => !r.solved && r.turns.some((t) => t.valid !== false)),
        'a loss',
      );
      assert.ok(
        records.some((r) => r.turns.every((t) => t.valid === false)),
        'a no-play',
      );
      assert.ok(
        records.some((r) => r.turns.some((t) => t.valid === false)),
        'an invalid guess',
      );
      assert.ok(
        records.some((r) => r.turns.some((t) => t.source === 'text')),
        'a raw-text guess',
      );
    });
  });

  it("plays the rows of the job's dataset when it was uploaded to the emulator's S3", async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (_emulator, aws) => {
      const words = ['crane', 'slate', 'pious', 'fjord'];
      const rows = Array.from({ length: 32 }, (_, i) =>
        JSON.stringify({ prompt: JSON.stringify({ prompt: 'Guess the 5-letter word', answer: words[i % 4], id: `mine_${i}` }) }),
      );
      await upload(aws.s3(), { bucket: 'mtrl-demo', key: 'mine/train.jsonl' }, rows.join('\n'));
      const document = trainingDocument({ global_batch_size: '32', group_size: '2', max_steps: '1' });
      (document.InputDataConfig as { DataSource: { S3DataSource: { S3Uri: string } } }[])[0].DataSource.S3DataSource.S3Uri =
        's3://mtrl-demo/mine/train.jsonl';
      await createTrainingJob(aws, 'mine', document);
      clock.advance(30 * MINUTE);
      const records = await recordsOf(aws, 'mine');
      assert.equal(records.length, 64);
      assert.deepEqual([...new Set(records.map((r) => r.answer))].sort(), [...words].sort());
      assert.ok(records.every((r) => /^mine_\d+$/.test(r.row_id)));
    });
  });

  it('merges the streams of two concurrent jobs by time, and small pages read the same events as one', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (_emulator, aws) => {
      await create(aws, 'left', { global_batch_size: '32', group_size: '2', max_steps: '2' });
      clock.advance(1_000);
      await create(aws, 'right', { global_batch_size: '32', group_size: '4', max_steps: '1' });
      clock.advance(60 * MINUTE);
      const whole = await collect(filterLogEvents(aws.logs(), { logGroupName: RUNTIME_GROUP }));
      assert.equal(whole.length, 3 * (2 * 64 + 128));
      assert.ok(
        whole.every((e, i) => i === 0 || (e.timestamp ?? 0) >= (whole[i - 1].timestamp ?? 0)),
        'time order across streams',
      );
      const switches = whole.filter((e, i) => i > 0 && e.logStreamName !== whole[i - 1].logStreamName).length;
      assert.ok(switches >= 2, `the two jobs' lines interleave (${switches} switches)`);
      const paged = await collect(filterLogEvents(aws.logs(), { logGroupName: RUNTIME_GROUP, pageSize: 7 }));
      assert.deepEqual(
        paged.map((e) => e.eventId),
        whole.map((e) => e.eventId),
      );
      const late = whole[whole.length - 10].timestamp ?? 0;
      const tail = await collect(filterLogEvents(aws.logs(), { logGroupName: RUNTIME_GROUP, startTime: late }));
      assert.deepEqual(
        tail.map((e) => e.eventId),
        whole.filter((e) => (e.timestamp ?? 0) >= late).map((e) => e.eventId),
      );
    });
  });

  it('stops, refuses to delete a running job, then deletes it', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false, speed: 1 }, async (_emulator, aws) => {
      const job = await create(aws, 'to-stop', { global_batch_size: '32', group_size: '2', max_epochs: '20' });
      clock.advance(10 * MINUTE);
      await assert.rejects(deleteJob(aws.sagemaker(), job), (e: Error) => e.name === 'ResourceInUse');
      await stopJob(aws.sagemaker(), job);
      assert.equal((await describeJob(aws.sagemaker(), job)).JobStatus, 'Stopping');
      clock.advance(MINUTE);
      const d = await describeJob(aws.sagemaker(), job);
      assert.equal(d.JobStatus, 'Stopped');
      assert.deepEqual(
        d.SecondaryStatusTransitions?.slice(-2).map((t) => t.Status),
        ['Stopping', 'Stopped'],
      );
      const completed = d.config?.ServiceOutput?.RolloutInfo?.Completed ?? 0;
      clock.advance(60 * MINUTE);
      assert.equal(
        (await describeJob(aws.sagemaker(), job)).config?.ServiceOutput?.RolloutInfo?.Completed,
        completed,
        'no rollouts after the stop',
      );
      assert.equal((await recordsOf(aws, 'to-stop')).length, completed);
      await deleteJob(aws.sagemaker(), job);
      await deleteJob(aws.sagemaker(), job);
      await assert.rejects(describeJob(aws.sagemaker(), job), (e: Error) => e.name === 'ResourceNotFound');
    });
  });

  it('answers misuse with the service errors: duplicate name, second evaluation, bad paging, stopping a finished job', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (_emulator, aws) => {
      const sm = aws.sagemaker();
      const job = await create(aws, 'twice', { max_steps: '1' });
      await assert.rejects(create(aws, 'twice', {}), (e: Error) => e.name === 'ResourceInUse' && /already exists/.test(e.message));
      const evaluation = JSON.stringify(evaluationDocument({ temperature: '1.0' }));
      await createJob(sm, {
        JobName: 'eval-1',
        JobCategory: 'AgentRFTEvaluation',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: evaluation,
      });
      await assert.rejects(
        createJob(sm, {
          JobName: 'eval-2',
          JobCategory: 'AgentRFTEvaluation',
          RoleArn: SEEDED.jobRole,
          JobConfigSchemaVersion: '1.0.0',
          JobConfigDocument: evaluation,
        }),
        (e: Error) => e.name === 'ResourceLimitExceeded',
      );
      await assert.rejects(
        collect(listJobs(sm, { JobCategory: 'AgentRFT', MaxResults: 101 })),
        (e: Error) => e.name === 'ValidationException' && /maxResults/.test(e.message),
      );
      await assert.rejects(
        sm.send(new ListJobsCommand({ JobCategory: 'AgentRFT', NextToken: 'garbage' })),
        (e: Error) => e.name === 'ValidationException' && /NextToken/.test(e.message),
      );
      clock.advance(60 * MINUTE);
      await assert.rejects(stopJob(sm, job), (e: Error) => e.name === 'ValidationException' && /Completed/.test(e.message));
    });
  });

  it('fails a job whose role has the wrong trust, and one whose agent returns an error status', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (_emulator, aws) => {
      const trust = await create(aws, 'bad-trust', {}, 'arn:aws:iam::111122223333:role/mtrl-wrong-trust-role');
      const status = await create(aws, 'bad-agent', {}, SEEDED.jobRole, SEEDED.errorStatusRuntime);
      clock.advance(30 * MINUTE);
      const t = await describeJob(aws.sagemaker(), trust);
      assert.equal(t.JobStatus, 'Failed');
      assert.match(t.FailureReason ?? '', /Could not assume role/);
      const s = await describeJob(aws.sagemaker(), status);
      assert.equal(s.JobStatus, 'Failed');
      assert.match(s.FailureReason ?? '', /The agent signaled that the trajectory failed/);
      assert.equal(s.SecondaryStatusTransitions?.at(-1)?.Status, 'Failed');
    });
  });
});
