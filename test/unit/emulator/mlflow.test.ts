import assert from 'node:assert/strict';
import { filterLogEvents } from '../../../src/aws/logs';
import { MlflowError } from '../../../src/aws/mlflow/answers';
import { MlflowClient } from '../../../src/aws/mlflow/client';
import { describeMlflowError } from '../../../src/aws/mlflow/errors';
import { describeJob } from '../../../src/aws/sagemaker';
import type { AwsClients } from '../../../src/aws/clients';
import { parseMlflowArn } from '../../../src/core/metrics/mlflow';
import { ManualClock } from '../../../src/emulator/clock';
import { rolloutTokens } from '../../../src/emulator/mlflowMetrics';
import { SEEDED } from '../../../src/emulator/seed';
import { loadJobMetrics } from '../../../src/services/metrics/load';
import { collect, createTrainingJob, trainingDocument, withEmulator } from './helpers';

const RUNTIME_GROUP = '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT';
const MINUTE = 60_000;
const credentials = async () => ({ accessKeyId: 'test', secretAccessKey: 'test' });

interface LoggedRecord {
  trajectory_id: string;
  reward: number;
  turns: unknown[];
}

/** The rollout records of a job's logs, grouped by the step in their trajectory id (0-based: MLflow step n is log step n − 1). */
async function recordsByStep(aws: AwsClients, jobName: string): Promise<Map<number, LoggedRecord[]>> {
  const events = await collect(filterLogEvents(aws.logs(), { logGroupName: RUNTIME_GROUP, filterPattern: `"job/AgentRFT/${jobName}"` }));
  const steps = new Map<number, LoggedRecord[]>();
  for (const e of events) {
    const r = JSON.parse(e.message ?? '') as LoggedRecord;
    const step = Number(r.trajectory_id.split('-')[1]) + 1;
    steps.set(step, [...(steps.get(step) ?? []), r]);
  }
  return steps;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const close = (a: number | undefined, b: number, what: string) =>
  assert.ok(a !== undefined && Math.abs(a - b) < 1e-5, `${what}: ${a} vs ${b}`);

describe('emulator: MLflow REST API', () => {
  it('logs per-step metrics that agree with the rollouts of the same step in the logs, and grows while the job runs', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      const hp = { global_batch_size: '32', group_size: '4', max_steps: '6', val_every: '4', pass_k_values: '[1,2,4,8]' };
      await createTrainingJob(aws, 'curves', trainingDocument(hp));
      const ref = { jobName: 'curves', category: 'AgentRFT' as const, region: 'us-east-1' };
      const plan = emulator.world.jobs.get('us-east-1/AgentRFT/curves')!.plan;
      clock.advance(plan.startingMs + plan.downloadingMs + 3.5 * plan.stepMs);
      const early = await loadJobMetrics(aws, ref);
      const earlySteps = early.series['rollout/reward/mean'].map((p) => p.step);
      assert.deepEqual(earlySteps, [1, 2, 3], 'a running job has the steps it finished');
      assert.deepEqual(
        early.series['val/reward/mean'].map((p) => p.step),
        [0],
      );
      assert.equal(early.runStatus, 'RUNNING');

      clock.advance(60 * MINUTE);
      const d = await describeJob(aws.sagemaker(), { jobName: 'curves', category: 'AgentRFT' });
      assert.equal(d.JobStatus, 'Completed');
      const gets = () => emulator.requests.get('sagemaker:GET') ?? 0;
      const before = gets();
      const m = await loadJobMetrics(aws, ref);
      assert.equal(
        gets() - before,
        1 + Object.keys(m.series).length,
        'one runs/get for the run and its keys, then one get-history per key',
      );
      assert.equal(m.runId, d.config?.ServiceOutput?.MlflowDetails?.RunId, 'DescribeJob carries the run id');
      assert.equal(m.runStatus, 'FINISHED');
      assert.deepEqual(
        m.series['rollout/reward/mean'].map((p) => p.step),
        [1, 2, 3, 4, 5, 6],
      );
      assert.deepEqual(
        m.series['val/reward/mean'].map((p) => p.step),
        [0, 4, 6],
        'validation at 0, every val_every and the last step',
      );
      assert.ok(m.keys.includes('val/reward/pass_at_4') && !m.keys.includes('val/reward/pass_at_8'), 'pass@k only up to the group size');
      assert.ok(m.keys.length >= 40, `${m.keys.length} keys`);
      const logged = await recordsByStep(aws, 'curves');
      for (const step of [1, 2, 3, 4, 5, 6]) {
        const records = logged.get(step)!;
        const at = (key: string) => m.series[key].find((p) => p.step === step)?.value;
        assert.equal(records.length, 128);
        close(at('rollout/reward/mean'), mean(records.map((r) => r.reward)), `reward mean at ${step}`);
        close(at('rollout/reward/max'), Math.max(...records.map((r) => r.reward)), `reward max at ${step}`);
        close(at('rollout/turns/mean'), mean(records.map((r) => r.turns.length)), `turns at ${step}`);
        close(at('rollout/tokens/response_mean'), mean(records.map((r) => rolloutTokens(r.turns.length).response)), `tokens at ${step}`);
        const groups = Array.from({ length: 32 }, (_, g) =>
          records.filter((r) => Math.floor(Number(r.trajectory_id.split('-')[2]) / 4) === g).map((r) => r.reward),
        );
        assert.equal(
          at('analysis/zero_adv_groups'),
          groups.filter((g) => Math.max(...g) === Math.min(...g)).length,
          `zero-advantage groups at ${step}`,
        );
      }
      // Timestamps follow the job's own clock: one step per stepMs.
      const times = m.series['rollout/reward/mean'].map((p) => p.timestamp);
      assert.ok(times.every((t, i) => i === 0 || t > times[i - 1]));
    });
  });

  it('finds a run by experiment and run name, pages histories, and answers unknown ids and apps with MLflow and gateway errors', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      await createTrainingJob(aws, 'paged', trainingDocument({ global_batch_size: '32', group_size: '2', max_steps: '5' }));
      clock.advance(60 * MINUTE);
      const client = new MlflowClient(parseMlflowArn(SEEDED.mlflowApp)!, { credentials, endpoint: emulator.url });
      const experiment = await client.experimentByName('tests');
      assert.ok(experiment);
      const [run] = await client.searchRuns([experiment.experiment_id], "tags.mlflow.runName = 'paged'");
      assert.equal(run.info.run_name, 'paged');
      assert.deepEqual(await client.searchRuns([experiment.experiment_id], "attributes.run_name = 'nope'"), []);
      assert.equal(await client.experimentByName('no-such-experiment'), undefined);
      const { points: all } = await client.metricHistory(run.info.run_id, 'rollout/reward/mean');
      assert.equal(all.length, 5);
      await assert.rejects(
        client.getRun('0'.repeat(32)),
        (e: unknown) => e instanceof MlflowError && e.status === 404 && e.errorCode === 'RESOURCE_DOES_NOT_EXIST',
      );
      const missing = new MlflowClient(parseMlflowArn('arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-gone')!, {
        credentials,
        endpoint: emulator.url,
      });
      const gone = await missing.getRun(run.info.run_id).catch((e: unknown) => e);
      assert.match(describeMlflowError(gone), /was not found: it may have been deleted/);
      const denied = new MlflowClient(parseMlflowArn('arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-denied')!, {
        credentials,
        endpoint: emulator.url,
      });
      assert.match(describeMlflowError(await denied.getRun(run.info.run_id).catch((e: unknown) => e)), /allow sagemaker-mlflow:GetRun/);
      const creating = new MlflowClient(parseMlflowArn('arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-creating')!, {
        credentials,
        endpoint: emulator.url,
        maxAttempts: 1,
      });
      assert.match(describeMlflowError(await creating.getRun(run.info.run_id).catch((e: unknown) => e)), /not ready yet/);
    });
  });

  it('pages get-history by max_results and page_token', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      await createTrainingJob(aws, 'pages', trainingDocument({ global_batch_size: '32', group_size: '2', max_steps: '7' }));
      clock.advance(60 * MINUTE);
      const d = await describeJob(aws.sagemaker(), { jobName: 'pages', category: 'AgentRFT' });
      const runId = d.config!.ServiceOutput!.MlflowDetails!.RunId!;
      const client = new MlflowClient(parseMlflowArn(SEEDED.mlflowApp)!, { credentials, endpoint: emulator.url });
      const sent: string[] = [];
      const original = globalThis.fetch;
      globalThis.fetch = (input, init) => {
        sent.push(String(input));
        return original(input, init);
      };
      try {
        const { points } = await client.metricHistory(runId, 'timing_s/step', { pageSize: 3 });
        assert.deepEqual(
          points.map((p) => p.step),
          [1, 2, 3, 4, 5, 6, 7],
        );
        assert.equal(sent.length, 3, 'three pages of three');
        assert.ok(sent.slice(1).every((u) => u.includes('page_token=')));
      } finally {
        globalThis.fetch = original;
      }
    });
  });
});
