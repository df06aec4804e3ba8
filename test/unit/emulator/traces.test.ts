import assert from 'node:assert/strict';
import { filterLogEvents } from '../../../src/aws/logs';
import { MlflowClient } from '../../../src/aws/mlflow/client';
import { mlflowRoute, signMlflowCall } from '../../../src/aws/mlflow/signing';
import { describeJob } from '../../../src/aws/sagemaker';
import { parseMlflowArn } from '../../../src/core/metrics/mlflow';
import type { TraceInfo } from '../../../src/core/rollouts';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { collect, createTrainingJob, trainingDocument, withEmulator } from './helpers';
import { rolloutOfTrace } from './spans';
import { ceiling } from '../../host/lib/ceiling';

const RUNTIME_GROUP = '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT';
const credentials = async () => ({ accessKeyId: 'test', secretAccessKey: 'test' });
const started = (t: TraceInfo) => Date.parse(t.request_time!);

describe('emulator: MLflow traces, one per rollout', function () {
  this.timeout(ceiling(60_000));

  it('lists a run’s traces newest first in pages; batchGet returns the same games as the log’s records, each inside its step’s metric window', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      const document = trainingDocument({ max_steps: '3', global_batch_size: '32', group_size: '4' });
      await createTrainingJob(aws, 'traced', document);
      clock.advance(24 * 3_600_000);
      const details = (await describeJob(aws.sagemaker(), { jobName: 'traced', category: 'AgentRFT' })).config!.ServiceOutput!
        .MlflowDetails!;
      const client = new MlflowClient(parseMlflowArn(SEEDED.mlflowApp)!, { credentials, endpoint: emulator.url });
      const run = { experimentId: details.ExperimentId!, runId: details.RunId! };

      const pages = await collect(client.searchTraces({ ...run, pageSize: 100 }));
      assert.deepEqual(
        pages.map((p) => p.length),
        [100, 100, 100, 84],
      );
      const infos = pages.flat();
      assert.equal(new Set(infos.map((t) => t.trace_id)).size, 384);
      assert.ok(
        infos.every((t, i) => i === 0 || started(infos[i - 1]) >= started(t)),
        'newest first',
      );
      assert.ok(infos.every((t) => /^tr-[0-9a-f]{32}$/.test(t.trace_id) && t.trace_metadata?.['mlflow.sourceRun'] === run.runId));

      // Bounded: a limit stops the listing mid-page; follow mode lists what started after a time, oldest first.
      assert.equal((await collect(client.searchTraces({ ...run, limit: 150, pageSize: 100 }))).flat().length, 150);
      const cut = started(infos[200]);
      const newer = (await collect(client.searchTraces({ ...run, after: cut, oldestFirst: true }))).flat();
      // Rollouts of a step start together (at most TRACE_MS before they end, never before their step): ties are not newer.
      const expected = infos.filter((t) => started(t) > cut).reverse();
      assert.equal(expected.length, 128, 'the cut is in step 2: the traces of step 3 started after it');
      assert.deepEqual(
        newer.map((t) => t.trace_id),
        expected.map((t) => t.trace_id),
      );

      const whole = await client.batchGetTraces(infos.map((t) => t.trace_id));
      assert.equal(whole.length, 384);
      // No trajectory id and no step in a real trace: rollouts pair with the log's records in time order.
      const traced = whole.map(rolloutOfTrace).sort((a, b) => (a.end < b.end ? -1 : a.end > b.end ? 1 : 0));
      const records = (
        await collect(filterLogEvents(aws.logs(), { logGroupName: RUNTIME_GROUP, filterPattern: '"job/AgentRFT/traced"' }))
      ).map((e) => JSON.parse(e.message!) as { trajectory_id: string; reward: number; turns: { guess: string }[] });
      assert.equal(records.length, 384);
      records.forEach((record, i) => {
        const trace = traced[i];
        assert.deepEqual([trace.prompt, trace.status, trace.reward], ['Guess the 5-letter word', 'reward_received', record.reward]);
        assert.deepEqual(
          trace.turns.map((t) => t.calls.map((c) => [c.name, JSON.parse(c.arguments).guess])),
          record.turns.map((t) => [['guess_word', t.guess]]),
          record.trajectory_id,
        );
        assert.ok(trace.turns.every((t) => t.thinking.length > 0));
      });
      assert.ok(
        infos.every((t) => !('mtrl.step' in (t.trace_metadata ?? {}))),
        'real traces carry no step',
      );

      // The step is in the time: every trace lies between the previous step's metric timestamp and its own step's,
      // and the traces in a step's window average to that step's logged reward.
      const { points } = await client.metricHistory(run.runId, 'rollout/reward/mean');
      assert.deepEqual(
        points.map((p) => p.step),
        [1, 2, 3],
      );
      const ns = (ms: number) => BigInt(ms) * 1_000_000n;
      points.forEach((point, i) => {
        const from = i === 0 ? 0n : ns(points[i - 1].timestamp);
        const inStep = traced.filter((t) => t.start > from && t.end <= ns(point.timestamp));
        assert.equal(inStep.length, 128, `step ${point.step}`);
        const mean = inStep.reduce((sum, t) => sum + t.reward, 0) / inStep.length;
        assert.ok(Math.abs(mean - point.value) < 1e-6, `step ${point.step}: ${mean} vs ${point.value}`);
      });
      assert.deepEqual(await client.batchGetTraces(['tr-00000000000000000000000000000000']), []);
    });
  });

  it('answers filters it does not understand and oversized pages with MLflow’s INVALID_PARAMETER_VALUE', async () => {
    await withEmulator({}, async (emulator) => {
      const resource = parseMlflowArn(SEEDED.mlflowApp)!;
      const search = async (body: object) => {
        const signed = await signMlflowCall(
          { method: 'POST', path: '/api/3.0/mlflow/traces/search', body: JSON.stringify(body) },
          resource,
          mlflowRoute(resource, emulator.url),
          credentials,
        );
        const response = await fetch(signed.url, { method: 'POST', headers: signed.headers, body: signed.body });
        return { status: response.status, body: (await response.json()) as { error_code?: string; message?: string } };
      };
      const locations = [{ type: 'MLFLOW_EXPERIMENT', mlflow_experiment: { experiment_id: '1' } }];
      const bad = await search({ locations, filter: "tags.color = 'red'" });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error_code, 'INVALID_PARAMETER_VALUE');
      assert.match(bad.body.message ?? '', /tags\.color/);
      assert.equal((await search({ locations, max_results: 501 })).body.error_code, 'INVALID_PARAMETER_VALUE');
      assert.equal((await search({ filter: '' })).body.error_code, 'INVALID_PARAMETER_VALUE');
    });
  });
});
