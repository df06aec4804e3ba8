import assert from 'node:assert/strict';
import { filterLogEvents } from '../../../src/aws/logs';
import { MlflowClient } from '../../../src/aws/mlflow/client';
import { mlflowRoute, signMlflowCall } from '../../../src/aws/mlflow/signing';
import { createJob, describeJob } from '../../../src/aws/sagemaker';
import { parseMlflowArn } from '../../../src/core/metrics/mlflow';
import { transcriptFromTrace, type TraceInfo } from '../../../src/core/rollouts';
import { transcriptFromRecord } from '../../../src/core/transcript/record';
import { wordleView } from '../core/rollouts/wordleView';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { collect, trainingDocument, withEmulator } from './helpers';

const RUNTIME_GROUP = '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT';
const credentials = async () => ({ accessKeyId: 'test', secretAccessKey: 'test' });
const started = (t: TraceInfo) => Date.parse(t.request_time!);

describe('emulator: MLflow traces, one per rollout', function () {
  this.timeout(60_000);

  it('lists a run’s traces newest first in pages, and batchGet returns the same games as the runtime log’s records', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      const document = trainingDocument({ max_steps: '3', global_batch_size: '32', group_size: '4' });
      await createJob(aws.sagemaker(), {
        JobName: 'traced',
        JobCategory: 'AgentRFT',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(document),
      });
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
      assert.equal(infos[0].trace_metadata?.['mtrl.step'], '3');

      // Bounded: a limit stops the listing mid-page; follow mode lists what started after a time, oldest first.
      assert.equal((await collect(client.searchTraces({ ...run, limit: 150, pageSize: 100 }))).flat().length, 150);
      const cut = started(infos[99]);
      const newer = (await collect(client.searchTraces({ ...run, after: cut, oldestFirst: true }))).flat();
      assert.deepEqual(
        newer.map((t) => t.trace_id),
        infos
          .slice(0, 99)
          .reverse()
          .map((t) => t.trace_id),
      );

      const whole = await client.batchGetTraces(infos.map((t) => t.trace_id));
      assert.equal(whole.length, 384);
      const fromTraces = new Map(whole.map((t) => wordleView(transcriptFromTrace(t)!)).map((r) => [r.trajectory_id, r]));
      const records = (
        await collect(filterLogEvents(aws.logs(), { logGroupName: RUNTIME_GROUP, filterPattern: '"job/AgentRFT/traced"' }))
      ).map((e) => wordleView(transcriptFromRecord(JSON.parse(e.message!))!));
      assert.equal(records.length, 384);
      for (const record of records) {
        const traced = fromTraces.get(record.trajectory_id)!;
        assert.ok(traced, `no trace for ${record.trajectory_id}`);
        assert.deepEqual(
          [traced.step, traced.stepFrom, traced.row_id, traced.answer, traced.reward, traced.solved, traced.job_arn],
          [record.step, 'trace', record.row_id, record.answer, record.reward, record.solved, record.job_arn],
        );
        assert.deepEqual(
          traced.turns.map((t) => [t.guess, t.marks, t.valid]),
          record.turns.map((t) => [t.guess, t.marks, t.valid]),
          record.trajectory_id,
        );
      }
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
