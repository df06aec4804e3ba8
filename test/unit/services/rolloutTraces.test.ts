import assert from 'node:assert/strict';
import type { TraceQuery } from '../../../src/aws/mlflow/client';
import type { Trace, TraceInfo } from '../../../src/core/rollouts';
import { hasTraces, traceReader, type TraceRun } from '../../../src/services/rolloutTraces';

/** A run's traces in memory, listed as MLflow does (newest first, or oldest first after a time), counting calls. */
class FakeRun implements TraceRun {
  readonly runId = 'run';
  readonly experimentId = '1';
  traces: TraceInfo[] = [];
  queries: TraceQuery[] = [];
  fetched: string[][] = [];
  client = {
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
  for await (const item of reader.read(new AbortController().signal)) if ('rollout' in item) out.push(item.rollout.trajectory_id);
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
});
