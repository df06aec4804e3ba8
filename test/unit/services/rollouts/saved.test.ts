import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_LINE_CHARS } from '../../../../src/core/text/lines';
import type { Transcript } from '../../../../src/core/transcript/model';
import { localReader, readLocalRollouts, readRollouts } from '../../../../src/services/rollouts';

const transcript = (task: string, i: number, reward: number): Transcript => ({
  id: `${task}-${i}`,
  groupKey: task,
  reward,
  status: 'completed',
  source: 'trace',
  task: { prompt: `Refund order ${task}` },
  turns: [{ text: 'refund issued', toolCalls: [{ name: 'issue_refund', arguments: { order: task } }] }],
});

describe('saved transcripts (a local signal check’s rollouts) read back', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-saved-'));
  const saved = [transcript('a', 0, 1), transcript('a', 1, 0.5), transcript('b', 0, 0), transcript('b', 1, 0)];
  const file = path.join(dir, 'check.jsonl');
  writeFileSync(file, saved.map((t) => JSON.stringify(t)).join('\n') + '\n');

  it('the board’s file reader gives every saved rollout, grouped by its task', async () => {
    const read = await readRollouts(localReader(file), new AbortController().signal);
    assert.equal(read.length, 4);
    assert.deepEqual(new Set(read.map((t) => t.id)), new Set(saved.map((t) => t.id)));
    assert.equal(new Set(read.map((t) => t.groupKey)).size, 2);
  });

  it('a folder of them too, and the signal report reads them grouped and judged as the board does', async () => {
    const board = await readRollouts(localReader(dir), new AbortController().signal);
    assert.equal(board.length, 4);
    const report = await readLocalRollouts(file, new AbortController().signal);
    assert.deepEqual(
      report.map((t) => [t.id, t.groupKey, t.reward, t.solved]),
      saved.map((t) => {
        const same = board.find((b) => b.id === t.id)!;
        return [t.id, same.groupKey, t.reward, same.solved];
      }),
    );
    assert.deepEqual(
      report.map((t) => t.solved),
      [true, false, false, false],
      'solved at the default threshold 1.0',
    );
  });

  it('a later line that is not a transcript is named to the report; the board reads such a file as log lines, never cut short', async () => {
    const mixed = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-saved-')), 'mixed.jsonl');
    writeFileSync(mixed, `${JSON.stringify(saved[0])}\nnot a transcript\n`);
    await readRollouts(localReader(mixed), new AbortController().signal);
    await assert.rejects(readLocalRollouts(mixed, new AbortController().signal), /mixed\.jsonl:2 is not JSON/);
  });

  it('a line past the line cap (64 M characters) is named with its length, not read into memory whole', async () => {
    const long = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-saved-')), 'long.jsonl');
    const huge = JSON.stringify({ ...saved[1], task: { prompt: 'x'.repeat(MAX_LINE_CHARS) } });
    writeFileSync(long, `${JSON.stringify(saved[0])}\n${huge}\n`);
    await assert.rejects(
      readLocalRollouts(long, new AbortController().signal),
      new RegExp(`long\\.jsonl:2 is ${huge.length.toLocaleString('en')} characters long, past the line cap of 64 M characters`),
    );
  });
});
