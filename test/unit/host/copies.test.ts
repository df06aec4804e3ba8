import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ceiling, loadFactor } from '../../host/lib/ceiling';
import { freshCopy, retireCopy } from '../../host/lib/copies';

describe('host harness: suite copies', () => {
  let dir: string;
  let fixture: string;
  let workspace: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mtrl-copies-'));
    fixture = path.join(dir, 'fixture');
    workspace = path.join(dir, 'workspace');
    mkdirSync(path.join(fixture, 'reward-scenarios'), { recursive: true });
    mkdirSync(workspace);
    writeFileSync(path.join(fixture, 'reward-scenarios', 'support.mtrl-reward.json'), '{}');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives each suite a fresh copy of its own; what one writes is not in the next, and a retired copy leaves the workspace', async () => {
    const first = await freshCopy(fixture, workspace, 'replayReward');
    writeFileSync(path.join(first, 'reward-scenarios', 'board.mtrl-reward.json'), '{"from-board": 1}');
    retireCopy(first);
    const second = await freshCopy(fixture, workspace, 'rewardScenarios');
    assert.deepEqual(readdirSync(workspace), ['rewardScenarios']);
    assert.deepEqual(readdirSync(path.join(second, 'reward-scenarios')), ['support.mtrl-reward.json']);
    assert.deepEqual(
      readdirSync(path.join(fixture, 'reward-scenarios')),
      ['support.mtrl-reward.json'],
      'the fixture itself is never written',
    );
  });

  it('never hands out a folder name twice, so no document VS Code still holds can name a new copy’s file', async () => {
    const first = await freshCopy(fixture, workspace, 'ui-signal');
    retireCopy(first);
    const again = await freshCopy(fixture, workspace, 'ui-signal');
    assert.notEqual(again, first);
    assert.equal(path.basename(again), 'ui-signal-2');
  });

  it('keeps a failed suite’s copy out of the workspace, under a free name, with what it wrote', async () => {
    const kept = path.join(dir, 'kept');
    const first = await freshCopy(fixture, workspace, 'ui-jobs');
    writeFileSync(path.join(first, 'left.txt'), 'left');
    const at = retireCopy(first, kept)!;
    const second = await freshCopy(fixture, workspace, 'ui-jobs');
    const at2 = retireCopy(second, kept)!;
    assert.notEqual(at, at2);
    assert.equal(readFileSync(path.join(at, 'left.txt'), 'utf8'), 'left');
    assert.equal(existsSync(first), false);
    assert.deepEqual(readdirSync(workspace), []);
  });

  it('makes folders one depth at a time, each seen by the watcher before its children are made, and copies files last', async () => {
    mkdirSync(path.join(fixture, 'datasets', 'pair'), { recursive: true });
    mkdirSync(path.join(fixture, 'replay'));
    writeFileSync(path.join(fixture, 'datasets', 'pair', 'train.jsonl'), '{}\n');
    const seen: string[][] = [];
    const copy = await freshCopy(fixture, workspace, 'datasets', async (folders) => {
      // Nothing below a folder exists when the watcher is asked about it: it can start watching it while it is empty.
      for (const folder of folders) assert.deepEqual(readdirSync(folder), [], `${folder} had content before it was seen`);
      seen.push(folders.map((f) => path.relative(workspace, f)).sort());
    });
    assert.deepEqual(seen, [
      ['datasets'],
      ['datasets/datasets', 'datasets/replay', 'datasets/reward-scenarios'],
      ['datasets/datasets/pair'],
    ]);
    assert.equal(readFileSync(path.join(copy, 'datasets', 'pair', 'train.jsonl'), 'utf8'), '{}\n');
  });
});

describe('host harness: wait ceilings', () => {
  it('keeps a margin of 2 on an idle machine, grows with the load per core, and stops at 8', () => {
    assert.equal(loadFactor(0.1, 2), 2);
    assert.equal(loadFactor(9, 2), 4.5);
    assert.equal(loadFactor(100, 2), 8);
    assert.equal(loadFactor(3, 0), 3, 'no core count is read as one core');
  });

  it('scales a wait by the larger of the load at the start (the driver measured) and now', () => {
    const before = process.env.MTRL_HOST_LOAD_FACTOR;
    try {
      process.env.MTRL_HOST_LOAD_FACTOR = '8';
      assert.equal(ceiling(10_000), 80_000);
      process.env.MTRL_HOST_LOAD_FACTOR = '1';
      assert.ok(ceiling(10_000) >= 20_000);
    } finally {
      if (before === undefined) delete process.env.MTRL_HOST_LOAD_FACTOR;
      else process.env.MTRL_HOST_LOAD_FACTOR = before;
    }
  });
});
