import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { TraceQuery } from '../../../../src/aws/mlflow/client';
import { tracesIn, transcriptFromTrace, type Trace, type TraceInfo } from '../../../../src/core/rollouts';
import { hasTraces, s3ArtifactReader, traceReader, type TraceRun } from '../../../../src/services/rollouts';
import { ARTIFACT_READS_AT_ONCE } from '../../../../src/services/rollouts/traces';
import { withEmulator } from '../../emulator/helpers';

/** A run's traces in memory, listed as MLflow does (newest first, or oldest first after a time), counting calls. */
class FakeRun implements TraceRun {
  readonly runId = 'run';
  readonly experimentId = '1';
  traces: TraceInfo[] = [];
  queries: TraceQuery[] = [];
  fetched: string[][] = [];
  client = {
    metricHistory: async () => ({ points: [], dropped: 0 }),
    searchTraces: (query: TraceQuery) => this.search(query),
    batchGetTraces: async (ids: readonly string[]): Promise<Trace[]> => {
      this.fetched.push([...ids]);
      // Whole traces come back in any order; one of them is gone by now.
      return this.traces
        .filter((t) => ids.includes(t.trace_id) && t.trace_id !== 'gone')
        .reverse()
        .map((info) => ({ trace_info: info }));
    },
  };

  add(id: string, ms: number, reward = 1): void {
    this.traces.push({
      trace_id: id,
      request_time: new Date(ms).toISOString(),
      response_preview: JSON.stringify({ reward }),
      request_preview: JSON.stringify({ metadata: { rolloutId: id } }),
    });
  }

  private async *search(query: TraceQuery): AsyncGenerator<TraceInfo[]> {
    this.queries.push(query);
    const at = (t: TraceInfo) => Date.parse(t.request_time!);
    let list = this.traces.filter((t) => query.after === undefined || at(t) > query.after);
    list = list.sort((a, b) => (query.oldestFirst ? at(a) - at(b) : at(b) - at(a))).slice(0, query.limit ?? Infinity);
    for (let i = 0; i < list.length; i += query.pageSize ?? 2) yield list.slice(i, i + (query.pageSize ?? 2));
  }
}

async function ids(reader: ReturnType<typeof traceReader>): Promise<string[]> {
  const out: string[] = [];
  for await (const item of reader.read(new AbortController().signal)) if ('transcript' in item) out.push(item.transcript.id);
  return out;
}

describe('rollouts from a run’s traces', () => {
  it('reads newest first, page by page with their spans, then follows only the traces started since, once each', async () => {
    const run = new FakeRun();
    for (const [id, ms] of [
      ['a', 1000],
      ['b', 2000],
      ['c', 3000],
      ['d', 3000],
      ['gone', 500],
    ] as const)
      run.add(id, ms);
    const reader = traceReader(run, { running: async () => true });
    assert.deepEqual(await ids(reader), ['c', 'd', 'b', 'a', 'gone'], 'a trace gone before it was fetched is read from its previews');
    assert.deepEqual(run.fetched, [['c', 'd'], ['b', 'a'], ['gone']], 'one batchGet per page of the listing');
    // Follow: the boundary millisecond is listed again, its traces already read are skipped.
    run.add('e', 3000);
    run.add('f', 4000);
    assert.deepEqual(await ids(reader), ['e', 'f']);
    assert.deepEqual(run.queries[1], { experimentId: '1', runId: 'run', after: 2999, oldestFirst: true });
    assert.deepEqual(await ids(reader), []);
  });

  it('stops the first read at the limit and says so', async () => {
    const run = new FakeRun();
    for (let i = 0; i < 7; i++) run.add(`t${i}`, 1000 + i);
    let told: number | undefined;
    const reader = traceReader(run, { running: async () => false, limit: 4, onLimit: (n) => (told = n) });
    assert.deepEqual(await ids(reader), ['t6', 't5', 't4', 't3']);
    assert.equal(told, 4);
    assert.equal(await hasTraces(run, new AbortController().signal), true);
    assert.equal(await hasTraces(new FakeRun(), new AbortController().signal), false);
  });

  const fixtures = path.resolve(__dirname, '../../../fixtures/real-run/traces');
  const artifactTag = (id: string) => ({ 'mlflow.artifactLocation': `s3://mlflow-artifacts/7/traces/${id}/artifacts` });

  it('reads the spans from each trace’s S3 artifact when batchGet gives none, or fails', async () => {
    const run = new FakeRun();
    run.add('tr-2207cd19007347c78487c1dbd50d4366', 1000);
    run.traces[0].tags = artifactTag(run.traces[0].trace_id);
    const raw = JSON.parse(readFileSync(path.join(fixtures, 'support_traces.rollout1.raw.json'), 'utf8'));
    const asked: string[] = [];
    const artifacts = async (info: TraceInfo) => {
      asked.push(info.tags!['mlflow.artifactLocation']);
      return transcriptFromTrace({ ...tracesIn(raw)[0], trace_info: info });
    };
    const turns = async (reader: ReturnType<typeof traceReader>) => {
      const out: number[] = [];
      for await (const item of reader.read(new AbortController().signal)) if ('transcript' in item) out.push(item.transcript.turns.length);
      return out;
    };
    assert.deepEqual(
      await turns(traceReader(run, { running: async () => false, artifacts })),
      [4],
      'batchGet gave no spans: the artifact did',
    );
    assert.equal(asked.length, 1);
    run.client.batchGetTraces = async () => {
      throw new Error('MLflow could not parse the span ids');
    };
    assert.deepEqual(await turns(traceReader(run, { running: async () => false, artifacts })), [4], 'batchGet failed: the artifact read');
    const failing = async () => {
      throw new Error('Could not read the trace’s spans from S3 (GetObject s3://mlflow-artifacts/…): AccessDenied');
    };
    await assert.rejects(turns(traceReader(run, { running: async () => false, artifacts: failing })), /GetObject s3:/);
  });

  /** A run of `count` traces whose spans only S3 has, each artifact read taking 0–3 ms; counts the reads in flight. */
  function slowArtifacts(count: number) {
    const run = new FakeRun();
    for (let i = 0; i < count; i++) {
      run.add(`t${i}`, 1000 + i);
      run.traces[i].tags = artifactTag(`t${i}`);
    }
    const seen = { started: 0, inFlight: 0, most: 0 };
    const artifacts = async (info: TraceInfo, signal: AbortSignal) => {
      seen.started++;
      seen.most = Math.max(seen.most, ++seen.inFlight);
      await new Promise((resolve) => setTimeout(resolve, (seen.started * 7) % 4));
      seen.inFlight--;
      signal.throwIfAborted();
      return transcriptFromTrace({ trace_info: info });
    };
    return { run, seen, reader: traceReader(run, { running: async () => false, artifacts }) };
  }

  it('reads S3 artifacts ARTIFACT_READS_AT_ONCE at a time across pages, the rollouts in the order listed', async () => {
    // Pages of two traces: more than two reads at once are reads of pages ahead.
    const { seen, reader } = slowArtifacts(300);
    assert.deepEqual(
      await ids(reader),
      Array.from({ length: 300 }, (_, i) => `t${299 - i}`),
    );
    assert.equal(seen.started, 300);
    assert.ok(seen.most > 2 && seen.most <= ARTIFACT_READS_AT_ONCE, `${seen.most} reads at once`);
  });

  it('a listing that fails part-way still gives the pages listed before it, in order, then the error', async () => {
    const { run, reader } = slowArtifacts(10);
    const listed = run.client.searchTraces;
    run.client.searchTraces = async function* (query: TraceQuery) {
      let pages = 0;
      for await (const page of listed(query)) {
        if (++pages === 4) throw new Error('MLflow is throttling requests');
        yield page;
      }
    };
    const got: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const item of reader.read(new AbortController().signal)) if ('transcript' in item) got.push(item.transcript.id);
      })(),
      /throttling/,
    );
    assert.deepEqual(got, ['t9', 't8', 't7', 't6', 't5', 't4']);
  });

  it('a cancelled read stops starting S3 reads and ends with the cancel', async () => {
    const { seen, reader } = slowArtifacts(300);
    const cancel = new AbortController();
    let read = 0;
    await assert.rejects(
      (async () => {
        for await (const item of reader.read(cancel.signal)) {
          if ('transcript' in item) read++;
          cancel.abort();
        }
      })(),
      { name: 'AbortError' },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(read >= 1 && seen.started < 300, `${seen.started} of 300 artifact reads started after the cancel`);
  });

  it('s3ArtifactReader reads traces.json at the trace’s artifact location through S3, and names the object when it cannot', async () => {
    await withEmulator({ history: false }, async (_emulator, aws) => {
      const s3 = aws.s3();
      const bucket = 'mtrl-mlflow-artifacts';
      await s3.send(new CreateBucketCommand({ Bucket: bucket }));
      const id = 'tr-358bf8638f5046489c6d2080d5ca1ccc';
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `7/traces/${id}/artifacts/traces.json`,
          Body: readFileSync(path.join(fixtures, 'wordle_trace.raw.json')),
        }),
      );
      const info: TraceInfo = { trace_id: id, tags: { 'mlflow.artifactLocation': `s3://${bucket}/7/traces/${id}/artifacts` } };
      const read = s3ArtifactReader(aws);
      const t = await read(info, new AbortController().signal);
      assert.equal(t?.id, id);
      assert.equal(t?.reward, 1.3);
      assert.deepEqual(
        t?.turns.map((turn) => turn.toolCalls[0].name),
        ['guess_word', 'guess_word'],
      );
      const missing: TraceInfo = { trace_id: 'tr-x', tags: { 'mlflow.artifactLocation': `s3://${bucket}/7/traces/tr-x/artifacts` } };
      // Missing, not denied: the object is named, and no permission is blamed.
      await assert.rejects(read(missing, new AbortController().signal), (error: Error) => {
        assert.match(error.message, /GetObject s3:\/\/mtrl-mlflow-artifacts\/7\/traces\/tr-x\/artifacts\/traces\.json\): NoSuchKey/);
        assert.doesNotMatch(error.message, /role needs/);
        return true;
      });
    });
  });
});
