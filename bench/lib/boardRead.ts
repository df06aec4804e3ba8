// One read of a source as the replay board's panel does it (src/features/replay/panel.ts `load`), without VS Code: the
// same reader, pipeline and board data, the first batch at 32 lines, then at most twice a second; at the first batch
// it answers what the page asks for to draw its first rows (steps, summary, the first 100 groups). Prints JSON.
import { ReplayData, RolloutPipeline } from '../../src/core/rollouts';
import { localReader } from '../../src/services/rollouts';
import { replayHandlers } from '../../src/shared/protocol';

async function main(target: string): Promise<void> {
  const started = performance.now();
  const signal = new AbortController().signal;
  const reader = localReader(target);
  const data = new ReplayData();
  const handlers = replayHandlers(data);
  const pipeline = new RolloutPipeline((await reader.context?.(signal)) ?? {}, (t) => reader.accepts(t));
  let first: { ms: number; rollouts: number; groups: number } | undefined;
  let shown = 0;
  let read = 0;
  for await (const line of reader.read(signal)) {
    pipeline.feed(line);
    if (++read % (data.size ? 256 : 32) === 0 && (data.size === 0 || Date.now() - shown > 500)) {
      const taken = pipeline.take();
      if (!taken.length) continue;
      data.append(taken);
      shown = Date.now();
      if (!first) {
        await handlers.steps({});
        await handlers.summary({ filter: {} });
        const page = await handlers.groups({ filter: {}, offset: 0, count: 100 });
        first = { ms: performance.now() - started, rollouts: data.size, groups: page.rows.length };
      }
    }
  }
  data.append(pipeline.take());
  data.append(pipeline.finish());
  const totalMs = performance.now() - started;
  const steps = data.steps().steps.length;
  console.log(JSON.stringify({ first, totalMs, rollouts: data.size, steps, lines: pipeline.lines, sinceStartMs: performance.now() }));
}

void main(process.argv[2]);
