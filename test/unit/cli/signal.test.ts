import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';

async function mtrl(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function transcripts(tasks: Record<string, number[]>): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-signal-')), 'run.jsonl');
  const lines = Object.entries(tasks).flatMap(([task, rewards]) =>
    rewards.map((reward, i) =>
      JSON.stringify({
        id: `${task}-${i}`,
        groupKey: task,
        reward,
        status: 'completed',
        source: 'trace',
        task: { prompt: task },
        turns: [],
      }),
    ),
  );
  writeFileSync(file, lines.join('\n'));
  return file;
}

describe('mtrl signal', () => {
  it('exit 1 and the advice when every task is solved by every rollout', async () => {
    const { code, out } = await mtrl('signal', transcripts({ a: [1, 1], b: [1, 1] }));
    assert.equal(code, 1);
    assert.match(out, /zero-advantage groups: 2\/2 = 100\.0 % \(2 always solved, 0 never solved, 0 the same partial credit\)/);
    assert.match(out, /- 100 % of tasks are solved by every rollout: they teach nothing/);
  });

  it('exit 0 and --json with the figures when most groups have a signal', async () => {
    const { code, out } = await mtrl('signal', transcripts({ a: [1, 0], b: [0.5, 1], c: [0, 0] }), '--json');
    assert.equal(code, 0);
    const report = JSON.parse(out);
    assert.equal(report.zeroAdvantage.groups, 1);
    assert.equal(report.groups, 3);
    assert.deepEqual(report.solvedBy, [1, 2, 0]);
  });

  it('a file that is not transcripts is a usage error naming the line', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-signal-')), 'x.jsonl');
    writeFileSync(file, '{"nope": 1}\n');
    const { code, err } = await mtrl('signal', file);
    assert.equal(code, 2);
    assert.match(err, /x\.jsonl:1 is not a transcript/);
  });
});
