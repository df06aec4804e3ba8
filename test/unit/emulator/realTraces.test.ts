import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MlflowClient } from '../../../src/aws/mlflow/client';
import { getObject, parseS3Uri } from '../../../src/aws/s3';
import { describeJob } from '../../../src/aws/sagemaker';
import { parseMlflowArn } from '../../../src/core/metrics/mlflow';
import type { Trace } from '../../../src/core/rollouts';
import type { AwsClients } from '../../../src/aws/clients';
import { ManualClock } from '../../../src/emulator/clock';
import { pythonJson } from '../../../src/emulator/pythonJson';
import type { Emulator } from '../../../src/emulator/server';
import { SEEDED } from '../../../src/emulator/seed';
import { collect, withEmulator } from './helpers';
import { plainSpan, rawSpans, rolloutOfSpans, rolloutOfTrace, type PlainSpan } from './spans';
import { ceiling } from '../../host/lib/ceiling';

const FIXTURES = path.resolve(__dirname, '../../fixtures/real-run/traces');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const credentials = async () => ({ accessKeyId: 'test', secretAccessKey: 'test' });

/** What a span is, by its place: the root, a model call, or a tool call. */
function kindOf(span: PlainSpan, spans: readonly PlainSpan[]): string {
  if (!span.parent) return 'root';
  return spans.find((s) => s.id === span.parent)?.parent ? 'tool' : 'turn';
}

/** A trace's shape without its values: per kind of span, its own keys, its attribute keys and the keys of their JSON. */
function shapeOf(spans: readonly Record<string, unknown>[]): string[] {
  const plain = spans.map((s) => plainSpan(s));
  const shapes = new Set<string>();
  spans.forEach((span, i) => {
    const kind = kindOf(plain[i], plain);
    const json = Object.entries(plain[i].attributes)
      .filter(([key]) => key.startsWith('mlflow.span'))
      .map(([key, text]) => `${key}{${Object.keys(JSON.parse(text) as object).sort()}}`);
    shapes.add(`${kind}: ${Object.keys(span).sort()} | ${Object.keys(plain[i].attributes).sort()} | ${json.sort()}`);
  });
  return [...shapes].sort();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function runOf(aws: AwsClients, jobName: string) {
  const details = (await describeJob(aws.sagemaker(), { jobName, category: 'AgentRFT' })).config!.ServiceOutput!.MlflowDetails!;
  return { experimentId: details.ExperimentId!, runId: details.RunId! };
}

async function firstTraces(emulator: Emulator, aws: AwsClients, jobName: string, count: number): Promise<Trace[]> {
  const client = new MlflowClient(parseMlflowArn(SEEDED.mlflowApp)!, { credentials, endpoint: emulator.url });
  const infos = (await collect(client.searchTraces({ ...(await runOf(aws, jobName)), limit: count, oldestFirst: true }))).flat();
  return client.batchGetTraces(infos.map((t) => t.trace_id));
}

async function text(aws: AwsClients, uri: string): Promise<string> {
  return Buffer.concat(await collect(getObject(aws.s3(), parseS3Uri(uri)!))).toString('utf8');
}

describe('emulator: traces in the real shape', function () {
  this.timeout(ceiling(60_000));

  it('writes REST traces and traces.json artifacts with the real fixtures’ keys, for the refund desk and Wordle', async () => {
    await withEmulator({ clock: new ManualClock() }, async (emulator, aws) => {
      const realRest = (name: string) => JSON.parse(fixture(name)) as { traces: Trace[] };
      const support = realRest('support_traces.batchGet.json').traces[0];
      const wordle = realRest('wordle_trace.batchGet.json').traces[0];
      const realRaw = (JSON.parse(fixture('support_traces.rollout1.raw.json')) as { spans: Record<string, unknown>[] }).spans;

      for (const [job, real] of [
        [SEEDED.refundJob, support],
        [SEEDED.completedJob, wordle],
      ] as const) {
        const [trace] = await firstTraces(emulator, aws, job, 1);
        assert.deepEqual(Object.keys(trace.trace_info).sort(), Object.keys(real.trace_info).sort(), job);
        assert.deepEqual(Object.keys(trace.trace_info.trace_metadata!).sort(), Object.keys(real.trace_info.trace_metadata!).sort());
        assert.deepEqual(Object.keys(trace.trace_info.tags!), ['mlflow.artifactLocation']);
        assert.deepEqual(shapeOf(trace.spans as Record<string, unknown>[]), shapeOf(real.spans as Record<string, unknown>[]), job);
        assert.ok(
          trace.spans!.every((s) => UUID.test(s.span_id!)),
          'UUID span ids',
        );

        const artifact = await text(aws, `${trace.trace_info.tags!['mlflow.artifactLocation']}/traces.json`);
        assert.deepEqual(shapeOf(JSON.parse(artifact).spans), shapeOf(realRaw), `${job}: traces.json`);
        // The artifact holds the very spans batchGet returned, nanoseconds exact.
        assert.deepEqual(
          rawSpans(artifact),
          trace.spans!.map((s) => plainSpan(s)),
        );
      }
    });
  });

  it('writes JSON text as the Python agents do, byte for byte as in the real Wordle trace', () => {
    const real = (JSON.parse(fixture('wordle_trace.batchGet.json')) as { traces: Trace[] }).traces[0].spans!.map((s) => plainSpan(s));
    const solved = real.at(-1)!.attributes;
    const result = (JSON.parse(solved['mlflow.spanOutputs']) as { result: string }).result;
    assert.equal(pythonJson({ result }), solved['mlflow.spanOutputs'], 'non-ASCII escaped, ", " and ": " separators');
    assert.equal(pythonJson({ arguments: pythonJson({ guess: 'crane' }) }), solved['mlflow.spanInputs']);
  });

  it('the refund desk: each step plays global_batch_size distinct tickets in groups of group_size, with tools and partial credit', async () => {
    await withEmulator({ clock: new ManualClock() }, async (emulator, aws) => {
      const rows = (await text(aws, SEEDED.refundTrain))
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { prompt: string }).prompt);
      assert.equal(rows.length, 80);
      const rollouts = (await firstTraces(emulator, aws, SEEDED.refundJob, 1280)).map(rolloutOfTrace);
      assert.equal(rollouts.length, 1280);
      // The step is the time between two metric timestamps: no trace names it.
      const client = new MlflowClient(parseMlflowArn(SEEDED.mlflowApp)!, { credentials, endpoint: emulator.url });
      const { points } = await client.metricHistory((await runOf(aws, SEEDED.refundJob)).runId, 'rollout/reward/mean');
      assert.equal(points.length, 10);
      const ns = (ms: number) => BigInt(ms) * 1_000_000n;
      const means: number[] = [];
      for (let step = 0; step < 10; step++) {
        const from = step === 0 ? 0n : ns(points[step - 1].timestamp);
        const inStep = rollouts.filter((r) => r.start > from && r.end <= ns(points[step].timestamp));
        assert.equal(inStep.length, 128, `step ${step + 1}: 32 x 4 rollouts in its window`);
        const groups = new Map<number, string[]>();
        for (const r of inStep) {
          const row = rows.findIndex((prompt) => r.prompt.includes(prompt));
          assert.ok(row >= 0, 'the first message contains its ticket');
          groups.set(row, [...(groups.get(row) ?? []), r.prompt]);
        }
        assert.equal(groups.size, 32, `step ${step + 1}: 32 distinct tickets`);
        for (const prompts of groups.values()) {
          assert.equal(prompts.length, 4, 'a group of 4 rollouts');
          assert.equal(new Set(prompts).size, 4, 'each rollout’s first message carries its own random environment');
        }
        means.push(inStep.reduce((sum, r) => sum + r.reward, 0) / inStep.length);
        assert.ok(Math.abs(means[step] - points[step].value) < 1e-6, `step ${step + 1}: the logged mean is the traces' mean`);
      }
      assert.ok(means[9] > means[0] + 0.1, `the policy improves: ${means.map((m) => m.toFixed(2)).join(' ')}`);

      const rewards = new Set(rollouts.map((r) => r.reward));
      assert.ok(
        [...rewards].every((r) => r >= 0 && r <= 1 && Number.isInteger(r * 4)),
        'partial credit in quarters',
      );
      assert.ok(rewards.size >= 4, [...rewards].join(' '));
      const calls = rollouts.flatMap((r) => r.turns.flatMap((t) => t.calls));
      assert.deepEqual([...new Set(calls.map((c) => c.name))].sort(), ['check_policy', 'close_ticket', 'issue_refund', 'lookup_order']);
      assert.ok(
        calls.every((c) => typeof JSON.parse(c.result) === 'object'),
        'JSON results',
      );
      assert.ok(
        calls.some((c) => !isJson(c.arguments)),
        'a few malformed arguments',
      );
      assert.ok(rollouts.every((r) => r.status === 'reward_received' && r.turns.every((t) => t.thinking)));
      assert.ok(
        rollouts.every((r) => r.turns.at(-1)!.calls.length === 0),
        'the last model call answers without a tool',
      );
    });
  });

  it('batchGet without spans (the fault switch) still points at each trace’s traces.json, which holds the rollout', async () => {
    const clock = new ManualClock();
    let whole: Trace[] = [];
    await withEmulator({ clock }, async (emulator, aws) => {
      whole = await firstTraces(emulator, aws, SEEDED.refundJob, 20);
    });
    await withEmulator({ clock, tracesWithoutSpans: true }, async (emulator, aws) => {
      const bare = await firstTraces(emulator, aws, SEEDED.refundJob, 20);
      assert.equal(bare.length, 20);
      assert.ok(
        bare.every((t) => !t.spans?.length),
        'no spans over REST',
      );
      assert.deepEqual(
        bare.map((t) => t.trace_info),
        whole.map((t) => t.trace_info),
      );
      for (const [i, trace] of bare.entries()) {
        const artifact = await text(aws, `${trace.trace_info.tags!['mlflow.artifactLocation']}/traces.json`);
        assert.deepEqual(rolloutOfSpans(rawSpans(artifact)), rolloutOfTrace(whole[i]));
      }
      const location = parseS3Uri(`${bare[0].trace_info.tags!['mlflow.artifactLocation']}/traces.json`)!;
      await assert.rejects(text(aws, `s3://${location.bucket}/${location.key.replace('tr-', 'tr-f')}`), /NoSuchKey|does not exist/);
    });
  });

  it('replays the same traces from the same seed, and other games from another', async () => {
    const clock = new ManualClock();
    const read = (seed: string) =>
      new Promise<Trace[]>((resolve, reject) =>
        withEmulator({ clock, seed }, async (emulator, aws) => resolve(await firstTraces(emulator, aws, SEEDED.refundJob, 30))).catch(
          reject,
        ),
      );
    const [a, b, c] = [await read('one'), await read('one'), await read('two')];
    assert.deepEqual(a, b);
    assert.notDeepEqual(
      a.map((t) => rolloutOfTrace(t).prompt),
      c.map((t) => rolloutOfTrace(t).prompt),
    );
  });
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
