import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../../src/cli';
import { localReader, readRollouts, streamReader, UnreadableFile } from '../../../../src/services/rollouts';
import { ceiling } from '../../../host/lib/ceiling';

/** A raw `traces.json` artifact of one rollout, its text padded to about `bytes` (a real artifact is ~6 KB). */
const artifact = (traceId: string, reward: number, bytes = 0) =>
  JSON.stringify(
    {
      spans: [
        {
          name: 'trajectory',
          context: { trace_id: traceId, span_id: `${traceId}-root` },
          parent_id: null,
          start_time: 1,
          end_time: 2,
          attributes: { 'mlflow.spanInputs': JSON.stringify({ prompt: `Ticket ${traceId}` }), reward: String(reward) },
        },
        {
          name: 'turn-1',
          context: { trace_id: traceId, span_id: `${traceId}-t1` },
          parent_id: `${traceId}-root`,
          start_time: 1,
          end_time: 2,
          attributes: { 'mlflow.spanOutputs': JSON.stringify({ thinking: 'x'.repeat(bytes) }) },
        },
      ],
    },
    null,
    2,
  );

/** `count` synced trace folders `tr-NNNN/artifacts/traces.json`, each ~`bytes` long; their ids in name order. */
function traceFolders(count: number, bytes = 0): { dir: string; ids: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-folders-'));
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `t${String(i).padStart(4, '0')}`;
    mkdirSync(path.join(dir, `tr-${id}`, 'artifacts'), { recursive: true });
    writeFileSync(path.join(dir, `tr-${id}`, 'artifacts', 'traces.json'), artifact(id, i % 2, bytes));
    ids.push(id);
  }
  return { dir, ids };
}

describe('a local folder of trace artifacts', function () {
  this.timeout(ceiling(60_000));

  it('gives its rollouts in name order, folder by folder, across the turns the read gives the event loop', async () => {
    // 4 MB: past one batch of synchronous reads, so the order holds across turns.
    const { dir, ids } = traceFolders(800, 5000);
    writeFileSync(path.join(dir, 'a-first.json'), artifact('a-first', 1));
    const read = await readRollouts(localReader(dir), new AbortController().signal);
    assert.deepEqual(
      read.map((t) => t.id),
      ['a-first', ...ids],
    );
  });

  it('hands its rollouts on in small batches, in name order, an entry of another shape walked in its place', async () => {
    const { dir, ids } = traceFolders(200);
    // Sorts between tr-t0100 and tr-t0101; holds two files, not artifacts/traces.json: walked when that is absent.
    const odd = path.join(dir, 'tr-t0100x');
    mkdirSync(odd);
    writeFileSync(path.join(odd, 'a.json'), artifact('odd-a', 1));
    writeFileSync(path.join(odd, 'b.json'), artifact('odd-b', 0));
    const expected = [...ids.slice(0, 101), 'odd-a', 'odd-b', ...ids.slice(101)];
    const reader = localReader(dir);
    const batches: string[][] = [];
    for await (const batch of reader.readBatches!(new AbortController().signal))
      batches.push(batch.map((item) => ('transcript' in item ? item.transcript.id : item.text)));
    assert.deepEqual(batches.flat(), expected);
    assert.ok(batches.length > 1 && batches.every((b) => b.length <= 32), `batch sizes ${batches.map((b) => b.length).join(' ')}`);
    const items: string[] = [];
    for await (const item of reader.read(new AbortController().signal)) items.push('transcript' in item ? item.transcript.id : item.text);
    assert.deepEqual(items, expected);
    assert.deepEqual(
      (await readRollouts(reader, new AbortController().signal)).map((t) => t.id),
      expected,
    );
  });

  it('lets timers and progress run while a large folder is read', async () => {
    const { dir, ids } = traceFolders(800, 5000);
    let read = 0;
    let readWhenTimerRan: number | undefined;
    setTimeout(() => (readWhenTimerRan = read), 0);
    for await (const item of localReader(dir).read(new AbortController().signal)) if ('transcript' in item) read++;
    assert.equal(read, ids.length);
    assert.ok(readWhenTimerRan !== undefined && readWhenTimerRan < ids.length, `the timer ran after ${readWhenTimerRan} of ${ids.length}`);
  });

  it('stops at the next turn once cancelled, before reading the rest', async () => {
    const { dir, ids } = traceFolders(800, 5000);
    const cancel = new AbortController();
    let read = 0;
    await assert.rejects(
      (async () => {
        for await (const item of localReader(dir).read(cancel.signal)) {
          if ('transcript' in item) read++;
          cancel.abort();
        }
      })(),
      { name: 'AbortError' },
    );
    assert.ok(read > 0 && read < ids.length, `read ${read} of ${ids.length} after cancel`);
  });

  it('a file it cannot read stops the read with a sentence naming it, not a rollout left out', async () => {
    const { dir } = traceFolders(3);
    const dangling = path.join(dir, 'tr-t0001', 'artifacts', 'spans.json');
    symlinkSync(path.join(dir, 'nowhere.json'), dangling);
    await assert.rejects(readRollouts(localReader(dir), new AbortController().signal), (error: unknown) => {
      assert.ok(error instanceof UnreadableFile);
      assert.equal(error.message, `cannot read ${dangling}: no such file (a link to nothing?)`);
      return true;
    });
    const err: string[] = [];
    const code = await main(['rollouts', dir, '--json'], { out: () => {}, err: (t) => err.push(t), stdin: () => [] });
    assert.equal(code, 2);
    assert.match(err.join('\n'), /cannot read .*spans\.json: no such file/);
  });

  it('a link to a trace artifact is read like the artifact', async () => {
    const { dir, ids } = traceFolders(2);
    symlinkSync(path.join(dir, 'tr-t0000', 'artifacts', 'traces.json'), path.join(dir, 'linked.json'));
    const other = path.join(dir, 'other');
    mkdirSync(other);
    writeFileSync(path.join(other, 'traces.json'), artifact('elsewhere', 1));
    symlinkSync(path.join(other, 'traces.json'), path.join(dir, 'z-linked.json'));
    const read = await readRollouts(localReader(dir), new AbortController().signal);
    // In name order; a trace reached twice (by its link and its folder) is taken once.
    assert.deepEqual(
      read.map((t) => t.id),
      ['t0000', 'elsewhere', ...ids.slice(1)],
    );
  });
});

/** One saved transcript line (`mtrl rollouts --transcripts`), its thinking `bytes` long. */
const savedLine = (id: string, reward: number, bytes = 10) =>
  JSON.stringify({
    id,
    task: { prompt: `Ticket ${id}` },
    groupKey: 'g1',
    reward,
    status: 'completed',
    source: 'trace',
    turns: [{ thinking: 'x'.repeat(bytes), toolCalls: [{ name: 'check_outage', arguments: {} }] }],
  });

describe('saved transcripts streamed line by line', function () {
  this.timeout(ceiling(60_000));

  it('a file past the size read whole (64 MB) gives every rollout, as a smaller one does', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-saved-'));
    const file = path.join(dir, 'rollouts.jsonl');
    // 66 lines of 1 MB: streamed, not read whole (the board on a million rollouts read none of them).
    const ids = Array.from({ length: 66 }, (_, i) => `r${i}`);
    writeFileSync(file, ids.map((id, i) => savedLine(id, i % 2, 2 ** 20)).join('\n') + '\n');
    const read = await readRollouts(localReader(file), new AbortController().signal);
    assert.deepEqual(
      read.map((t) => t.id),
      ids,
    );
    assert.equal(read[1].reward, 1);
    assert.equal((read[0].turns[0].thinking ?? '').length, 2 ** 20);
  });

  it('a stream (a file VS Code reads, standard input) gives every rollout, a line that is not one read as a log line', async () => {
    const text = [savedLine('a', 1), savedLine('b', 0), 'not json', savedLine('c', 0.5)].join('\n');
    const reader = streamReader(async () => [text.slice(0, 50), text.slice(50)]);
    const items = [];
    for await (const item of reader.read(new AbortController().signal)) items.push(item);
    assert.deepEqual(
      items.map((i) => ('transcript' in i ? i.transcript.id : i.text)),
      ['a', 'b', 'not json', 'c'],
    );
  });
});
