import assert from 'node:assert/strict';
import { getAgentRuntime, invokeAgentRuntime, listAgentRuntimes } from '../../../src/aws/agentcore';
import { filterLogEvents } from '../../../src/aws/logs';
import { createJob, describeJob, listJobs } from '../../../src/aws/sagemaker';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { HEALTH_JOBS } from '../../../src/emulator/seedHealth';
import { collect, trainingDocument, withEmulator } from './helpers';

const GROUP = '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT';
const smokePayload = (account: string) => ({
  prompt: JSON.stringify({ prompt: 'Guess the 5-letter word', answer: 'beach', id: 'smoke-test' }),
  metadata: { jobArn: `arn:aws:sagemaker:us-east-1:${account}:job/AgentRFT/smoke-test`, rolloutId: 'r1' },
});

describe('emulator: seeded account', () => {
  it('runs the seeded in-progress job at its own speed when asked (a slow test run still finds it running)', async () => {
    const clock = new ManualClock();
    const state = (aws: Parameters<Parameters<typeof withEmulator>[1]>[1]) =>
      describeJob(aws.sagemaker(), { jobName: SEEDED.inProgressJob, category: 'AgentRFT' });
    await withEmulator({ clock }, async (_emulator, aws) => {
      clock.advance(20 * 60_000);
      assert.equal((await state(aws)).JobStatus, 'Completed', 'at the default speed it is done after 20 minutes');
    });
    const slow = new ManualClock();
    await withEmulator({ clock: slow, runningSpeed: 15 }, async (_emulator, aws) => {
      const at = (await state(aws)).config?.ServiceOutput?.ProgressInfo?.CurrentStep ?? 0;
      slow.advance(40 * 60_000);
      const later = await state(aws);
      assert.equal(later.JobStatus, 'InProgress', 'at --running-speed 15 it still runs 40 minutes later');
      assert.ok((later.config?.ServiceOutput?.ProgressInfo?.CurrentStep ?? 0) > at, 'and it moves');
    });
  });

  it('holds the seeded history, with the in-progress job still running minutes later', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock }, async (_emulator, aws) => {
      const training = await collect(listJobs(aws.sagemaker(), { JobCategory: 'AgentRFT' }));
      assert.deepEqual(
        training.map((j) => [j.JobName, j.JobStatus]).sort(),
        [
          [SEEDED.completedJob, 'Completed'],
          [SEEDED.inProgressJob, 'InProgress'],
          [SEEDED.failedJob, 'Failed'],
          [SEEDED.refundJob, 'Completed'],
          [SEEDED.restartedJob, 'Completed'],
        ].sort(),
      );
      // The real run's messages: waiting for capacity, the step phase, a restart that ran more rollouts than planned.
      const restarted = await describeJob(aws.sagemaker(), { jobName: SEEDED.restartedJob, category: 'AgentRFT' });
      assert.deepEqual(
        restarted.SecondaryStatusTransitions?.map((t) => t.StatusMessage).filter((m) => /capacity|Restarting|step 10\/10/.test(m ?? '')),
        ['Job waiting for capacity', 'Restarting job due to retriable internal error', 'Training in progress, step 10/10: CheckpointStart'],
      );
      assert.deepEqual(restarted.config?.ServiceOutput?.RolloutInfo, { Total: 1280, Completed: 1511 });
      const done = await describeJob(aws.sagemaker(), { jobName: SEEDED.completedJob, category: 'AgentRFT' });
      const out = done.config?.ServiceOutput;
      assert.deepEqual(out?.ProgressInfo, { MaxEpoch: 20, StepsPerEpoch: 5, CurrentEpoch: 20, CurrentStep: 100 });
      assert.deepEqual(out?.RolloutInfo, { Total: 102400, Completed: 102400 });
      // Reference magnitudes: hundreds of millions of tokens, about 12 h 40 min of training.
      assert.ok((out?.BillableTokenUsage?.PrefillTokenCount ?? 0) > 400e6 && (out?.BillableTokenUsage?.TrainTokenCount ?? 0) > 600e6);
      const hours = ((done.EndTime?.getTime() ?? 0) - (done.CreationTime?.getTime() ?? 0)) / 3.6e6;
      assert.ok(hours > 12 && hours < 14, `ran ${hours} h`);
      const failed = await describeJob(aws.sagemaker(), { jobName: SEEDED.failedJob, category: 'AgentRFT' });
      assert.match(failed.FailureReason ?? '', /Could not assume role/);
      clock.advance(3 * 60_000);
      const running = await describeJob(aws.sagemaker(), { jobName: SEEDED.inProgressJob, category: 'AgentRFT' });
      assert.equal(running.JobStatus, 'InProgress');
      assert.ok((running.config?.ServiceOutput?.ProgressInfo?.CurrentStep ?? 0) > 12);
      clock.advance(6 * 60_000);
      assert.equal(
        (await describeJob(aws.sagemaker(), { jobName: SEEDED.inProgressJob, category: 'AgentRFT' })).JobStatus,
        'InProgress',
        'still running 9 minutes after start',
      );
      const evaluations = await collect(listJobs(aws.sagemaker(), { JobCategory: 'AgentRFTEvaluation' }));
      assert.equal(evaluations.length, 5);
      for (const name of [SEEDED.pipelineBaseEvaluation, SEEDED.pipelineFineTunedEvaluation]) {
        const pipelineJob = await describeJob(aws.sagemaker(), { jobName: name, category: 'AgentRFTEvaluation' });
        assert.equal(pipelineJob.JobStatus, 'Completed', name);
        // As in real output: the numbers are in the MLflow run the details name, not in ServiceOutput.
        assert.equal(pipelineJob.config?.ServiceOutput?.EvaluationMetrics, undefined);
        assert.ok(pipelineJob.config?.ServiceOutput?.MlflowDetails?.RunId);
      }
      const metric = async (name: string) =>
        (await describeJob(aws.sagemaker(), { jobName: name, category: 'AgentRFTEvaluation' })).config?.ServiceOutput?.EvaluationMetrics?.[
          'eval/reward/pass_at_1'
        ] as number;
      const [base, trained] = [await metric(SEEDED.baseEvaluation), await metric(SEEDED.trainedEvaluation)];
      assert.ok(trained > base + 0.1, `trained ${trained} vs base ${base}`);
    });
  });

  it('keeps regions apart: us-west-2 holds only the health jobs and their runtime, and a job there cannot use a us-east-1 runtime', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock }, async (_emulator, aws) => {
      const west = aws.sagemaker('us-west-2');
      assert.deepEqual(
        (await collect(listJobs(west, { JobCategory: 'AgentRFT' }))).map((j) => j.JobName).sort(),
        Object.values(HEALTH_JOBS)
          .map((h) => h.job)
          .sort(),
      );
      assert.deepEqual(
        (await collect(listAgentRuntimes(aws.agentCoreControl('us-west-2')))).map((r) => r.agentRuntimeId),
        ['wordle_agent-West123456'],
      );
      await assert.rejects(
        describeJob(west, { jobName: SEEDED.completedJob, category: 'AgentRFT' }),
        (e: Error) => e.name === 'ResourceNotFound',
      );
      const document = trainingDocument({ max_steps: '1' });
      const arn = await createJob(west, {
        JobName: 'west',
        JobCategory: 'AgentRFT',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(document),
      });
      assert.match(arn, /^arn:aws:sagemaker:us-west-2:111122223333:job\/AgentRFT\/west$/);
      clock.advance(5 * 60_000);
      const job = await describeJob(west, { jobName: 'west', category: 'AgentRFT' });
      assert.equal(job.JobStatus, 'Failed');
      assert.match(job.FailureReason ?? '', /must be in the same region/);
      assert.equal(
        (await collect(listJobs(aws.sagemaker('us-east-1'), { JobCategory: 'AgentRFT' }))).some((j) => j.JobName === 'west'),
        false,
      );
    });
  });

  it('lists the runtimes and describes the READY one', async () => {
    await withEmulator({}, async (_emulator, aws) => {
      const runtimes = await collect(listAgentRuntimes(aws.agentCoreControl()));
      assert.deepEqual(
        runtimes.map((r) => r.agentRuntimeId),
        [
          'wordle_agent-AbCdEf1234',
          'wordle_agent_no_server-NoServer12',
          'wordle_agent_error_status-ErrStat123',
          'wordle_agent_low-LowEffort1',
          'wordle_agent_silent-Silent1234',
          'refund_agent-Refund1234',
          'support_agent-Support123',
          'support_agent_key_error-KeyError12',
        ],
      );
      const runtime = await getAgentRuntime(aws.agentCoreControl(), 'wordle_agent-AbCdEf1234');
      assert.equal(runtime.agentRuntimeArn, SEEDED.runtime);
      assert.equal(runtime.status, 'READY');
    });
  });
});

describe('emulator: smoke-test paths of InvokeAgentRuntime', () => {
  it('an unknown job of our account: reward -1.5 and a 400 "Could not find job" line', async () => {
    await withEmulator({}, async (_emulator, aws) => {
      const since = Date.now() - 1000;
      const result = await invokeAgentRuntime(aws.agentCore(), { agentRuntimeArn: SEEDED.runtime, payload: smokePayload('111122223333') });
      assert.deepEqual(result.json, { reward: -1.5 });
      const lines = await collect(
        filterLogEvents(aws.logs(), { logGroupName: GROUP, startTime: since, filterPattern: '"Could not find job"' }),
      );
      assert.ok(lines.some((l) => /status=400/.test(l.message ?? '') && l.logStreamName?.endsWith(result.runtimeSessionId ?? '-')));
      // The sample's agent retries once: its first failure logs "attempt 1/2".
      assert.ok(lines.some((l) => /agent loop ended early on attempt 1\/2 \(BadRequestError/.test(l.message ?? '')));
    });
  });

  it("another account's job ARN: a 403 'not authorized to access this resource' line", async () => {
    await withEmulator({}, async (_emulator, aws) => {
      const since = Date.now() - 1000;
      const result = await invokeAgentRuntime(aws.agentCore(), { agentRuntimeArn: SEEDED.runtime, payload: smokePayload('444455556666') });
      assert.deepEqual(result.json, { reward: -1.5 });
      const lines = await collect(filterLogEvents(aws.logs(), { logGroupName: GROUP, startTime: since, filterPattern: 'status=403' }));
      assert.ok(lines.some((l) => /not authorized to access this resource/.test(l.message ?? '')));
    });
  });

  it('a runtime without an HTTP server hangs (30 s, scaled for tests) then fails', async () => {
    await withEmulator({ noServerTimeoutMs: 150 }, async (_emulator, aws) => {
      const error = (await invokeAgentRuntime(aws.agentCore(), {
        agentRuntimeArn: SEEDED.noServerRuntime,
        payload: smokePayload('111122223333'),
      }).catch((e: unknown) => e)) as Error;
      assert.equal(error.name, 'RuntimeClientError');
      assert.match(error.message, /did not respond within 30 seconds/);
    });
  });

  it('rejects a session id shorter than 33 characters', async () => {
    await withEmulator({}, async (_emulator, aws) => {
      await assert.rejects(
        invokeAgentRuntime(aws.agentCore(), {
          agentRuntimeArn: SEEDED.runtime,
          payload: smokePayload('111122223333'),
          runtimeSessionId: 'short',
        }),
        (e: Error) => e.name === 'ValidationException',
      );
    });
  });
});
