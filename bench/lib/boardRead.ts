// One read of a source as the replay board's panel does it (src/features/replay/panel.ts `load`), without VS Code: the
// same reader, pipeline and board data, rollouts taken every 256 lines (the first at 32), the board told at most twice a
// second; at the first batch it answers what the page asks for to draw its first rows (steps, summary, the first 100
// groups); at the end it opens the last rollout, its turns read back from the file. Prints JSON.
import { ReplayData, RolloutPipeline } from '../../src/core/rollouts';
import { localReader, readSavedAt } from '../../src/services/rollouts';
import { replayHandlers } from '../../src/shared/protocol';

async function main(target: string): Promise<void> {
  const started = performance.now();
  const signal = new AbortController().signal;
  const reader = localReader(target);
  const pipeline = new RolloutPipeline((await reader.context?.(signal)) ?? {}, (t) => reader.accepts(t));
  const data = new ReplayData([], (at) => readSavedAt(at, pipeline.job));
  const handlers = replayHandlers(data);
  const savedAt = (t: Parameters<typeof pipeline.savedAt>[0]) => pipeline.savedAt(t);
  let first: { ms: number; rollouts: number; groups: number } | undefined;
  let shown = 0;
  let read = 0;
  for await (const line of reader.read(signal)) {
    pipeline.feed(line);
    if (++read % (data.size ? 256 : 32) === 0) {
      const taken = pipeline.take();
      const firstBatch = data.size === 0;
      data.append(taken, savedAt);
      if (!taken.length || !(firstBatch || Date.now() - shown > 500)) continue;
      shown = Date.now();
      if (!first) {
        await handlers.steps({});
        await handlers.summary({ filter: {} });
        const page = await handlers.groups({ filter: {}, offset: 0, count: 100 });
        first = { ms: performance.now() - started, rollouts: data.size, groups: page.rows.length };
      }
    }
  }
  data.append(pipeline.take(), savedAt);
  data.append(pipeline.finish(), savedAt);
  const totalMs = performance.now() - started;
  const steps = data.steps().steps.length;
  // Opening a rollout reads its turns back from the file: the last one, the furthest in.
  const opening = performance.now();
  const opened = await handlers.rollout({ index: data.size - 1 });
  const openMs = performance.now() - opening;
  if (!opened?.transcript.turns.length) throw new Error('the last rollout opened without its turns');
  console.log(
    JSON.stringify({ first, totalMs, openMs, rollouts: data.size, steps, lines: pipeline.lines, sinceStartMs: performance.now() }),
  );
}

void main(process.argv[2]);
