import { strict as assert } from 'node:assert';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { prepareTranscripts, ReplayData, RolloutPipeline } from '../../../../src/core/rollouts';
import type { Transcript } from '../../../../src/core/transcript/model';
import { localReader, readSavedAt } from '../../../../src/services/rollouts';
import { ceiling } from '../../../host/lib/ceiling';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const ROLLOUTS = 72;
/** Each rollout's thinking: 72 of them make the file larger than the 64 MB read whole, so it is streamed. */
const THINKING_CHARS = 950_000;

/** A saved transcript whose turns are most of its line, with characters of two, three and four bytes in UTF-8. */
function saved(i: number): Transcript {
  const words = `Turn of rollout ${i}: café 漢字 🙂 check the router. `;
  return {
    id: `tr-${i}`,
    groupKey: `step-1-task-${i >> 3}`,
    step: 1,
    reward: (i % 5) / 4,
    status: 'completed',
    source: 'trace',
    task: { prompt: `Ticket ${i >> 3}: the internet drops every evening (naïve fix failed).` },
    turns: [
      { thinking: words.repeat(Math.ceil(THINKING_CHARS / words.length)).slice(0, THINKING_CHARS + i), toolCalls: [] },
      { text: 'Closing.', toolCalls: [{ name: 'take_support_action', arguments: { action: 'close_ticket' }, result: { done: true } }] },
    ],
  };
}

/** The panel's read (src/features/replay/panel.ts `load`): the reader, the pipeline, the board's data reading turns back. */
async function boardRead(file: string, readBack: boolean): Promise<ReplayData> {
  const reader = localReader(file);
  const pipeline = new RolloutPipeline();
  const data = new ReplayData([], readBack ? (at) => readSavedAt(at, pipeline.job) : undefined);
  for await (const item of reader.read(new AbortController().signal)) {
    pipeline.feed(item);
    data.append(pipeline.take(), (t) => pipeline.savedAt(t));
  }
  data.append(pipeline.finish(), (t) => pipeline.savedAt(t));
  return data;
}

describe('the replay board on a large file of saved transcripts', function () {
  this.timeout(ceiling(120_000));
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-readback-'));
  const file = path.join(dir, 'rollouts.jsonl');

  before(() => {
    const fd = openSync(file, 'w');
    // Windows line ends on every third line: a line's bytes are counted as they are.
    for (let i = 0; i < ROLLOUTS; i++) writeSync(fd, `${JSON.stringify(saved(i))}${i % 3 ? '\n' : '\r\n'}`);
    closeSync(fd);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('opens each rollout with its turns read back from the file, equal to the rollout read whole', async () => {
    const data = await boardRead(file, true);
    // Each rollout as it was written, readied as any reader's rollouts are: the file is not read to know them.
    const whole = prepareTranscripts(Array.from({ length: ROLLOUTS }, (_, i) => JSON.parse(JSON.stringify(saved(i))) as Transcript));
    assert.equal(data.size, ROLLOUTS);
    for (let i = 0; i < ROLLOUTS; i++) assert.deepEqual((await data.detail(i))?.transcript, whole[i], `rollout ${i}`);
    assert.deepEqual(
      (await data.shown({ minReward: 1 })).map((t) => t.id),
      whole.filter((t) => t.reward === 1).map((t) => t.id),
      're-scoring reads the rollouts shown back whole too',
    );
    assert.deepEqual(data.rolloutsIn(0, {})[0].turns, 2, 'the rows still count turns');
  });

  it('holds each rollout without its turns: the board grows by its facts, not by the 70 MB of thinking', async () => {
    const before = heapMb();
    const withFacts = await boardRead(file, true);
    const facts = heapMb() - before;
    // The control: the same read holding each rollout whole grows by its turns, so the measure can tell them apart.
    const withTurns = await boardRead(file, false);
    const turns = heapMb() - before - facts;
    assert.equal(withFacts.size, withTurns.size);
    assert.ok(turns > 60, `held whole, the rollouts take ${turns.toFixed(1)} MB`);
    assert.ok(facts < 2, `held as facts, they take ${facts.toFixed(1)} MB`);
  });

  it('says so when the file changed since the board read it, rather than showing another rollout', async () => {
    const data = await boardRead(file, true);
    writeFileSync(file, `${JSON.stringify(saved(1))}\n`.repeat(3));
    await assert.rejects(data.detail(0), /rollouts\.jsonl changed since/);
  });
});
