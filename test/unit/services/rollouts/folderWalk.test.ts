import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { filesUnder, layoutOf } from '../../../../src/services/rollouts/folderWalk';
import { localReader, readRollouts } from '../../../../src/services/rollouts';

/** A raw `traces.json` artifact of one rollout with this reward. */
const artifact = (id: string, reward = 1) =>
  JSON.stringify({
    spans: [
      {
        name: 'trajectory',
        context: { trace_id: id, span_id: `${id}-root` },
        parent_id: null,
        start_time: 1,
        end_time: 2,
        attributes: { 'mlflow.spanInputs': JSON.stringify({ prompt: `Ticket ${id}` }), reward: String(reward) },
      },
    ],
  });

/** Writes `files` (relative path → text) under a new folder. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-walk-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `r${String(i).padStart(3, '0')}`);
const layout = (dir: string) => layoutOf(dir, readdirSync(dir).sort());
const read = async (dir: string) => (await readRollouts(localReader(dir), new AbortController().signal)).map((t) => t.id);

describe('the layout of a folder of trace artifacts', () => {
  const made: string[] = [];
  const make = (files: Record<string, string>) => {
    const dir = folder(files);
    made.push(dir);
    return dir;
  };
  after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('tells <id>/traces.json and tr-<id>/artifacts/traces.json from the first folders, and names each file without listing its folder', () => {
    const flat = Object.fromEntries(ids(20).map((id) => [`${id}/traces.json`, artifact(id)]));
    const dir = make(flat);
    assert.deepEqual(layout(dir), { inner: 'traces.json' });
    const files = [...filesUnder(dir)];
    assert.equal(files.length, 20);
    assert.ok(files.every((f) => f.expected && f.unsized && f.file === path.join(f.expected.entry, 'traces.json')));
    const synced = make(Object.fromEntries(ids(20).map((id) => [`tr-${id}/artifacts/traces.json`, artifact(id)])));
    assert.deepEqual(layout(synced), { inner: path.join('artifacts', 'traces.json') });
  });

  it('tells flat files, and walks a folder of few entries or of folders that differ', () => {
    assert.deepEqual(layout(make(Object.fromEntries(ids(20).map((id) => [`${id}.json`, artifact(id)])))), { flat: true });
    assert.deepEqual(layout(make({ 'a/traces.json': artifact('a'), 'b/traces.json': artifact('b') })), {});
    const two = Object.fromEntries(ids(20).map((id) => [`${id}/traces.json`, artifact(id)]));
    two['r001/spans.json'] = artifact('extra');
    assert.deepEqual(layout(make(two)), {});
    const last = Object.fromEntries(ids(20).map((id) => [`${id}/traces.json`, artifact(id)]));
    last['zz/artifacts/traces.json'] = artifact('zz');
    assert.deepEqual(layout(make(last)), {}, 'the last folder is sampled too');
  });

  it('reads a folder missing its traces.json by walking it: its other file is read, an empty folder gives nothing', async () => {
    const files = Object.fromEntries(ids(20).map((id) => [`${id}/traces.json`, artifact(id)]));
    delete files['r010/traces.json'];
    files['r010/other.json'] = artifact('r010-other');
    delete files['r011/traces.json'];
    files['r011/notes.md'] = 'not read';
    const dir = make(files);
    assert.equal(layout(dir).inner, 'traces.json');
    const expected = ids(20).filter((id) => id !== 'r011');
    expected[10] = 'r010-other';
    assert.deepEqual(await read(dir), expected);
  });

  it('reads a mixed layout (some folders synced with artifacts/), flat files among the folders, in name order', async () => {
    const files = Object.fromEntries(ids(20).map((id) => [`${id}/traces.json`, artifact(id)]));
    delete files['r012/traces.json'];
    files['r012/artifacts/traces.json'] = artifact('r012');
    files['r015.json'] = artifact('r015-flat');
    const dir = make(files);
    assert.equal(layout(dir).inner, 'traces.json');
    const expected = ids(20);
    expected.splice(16, 0, 'r015-flat');
    assert.deepEqual(await read(dir), expected);
  });

  it('reads flat files without a stat each', async () => {
    const files = Object.fromEntries(ids(20).map((id) => [`${id}.json`, artifact(id)]));
    const dir = make(files);
    assert.ok([...filesUnder(dir)].every((f) => f.unsized && f.expected?.entry === f.file));
    assert.deepEqual(await read(dir), ids(20));
  });

  it('reads an entry of another shape than the layout told: a folder named like a file among flat files, a file among folders', async () => {
    const flat = Object.fromEntries(ids(20).map((id) => [`${id}.json`, artifact(id)]));
    delete flat['r012.json'];
    flat['r012.json/traces.json'] = artifact('r012-folder');
    flat['r013/traces.json'] = artifact('r013-folder');
    const dir = make(flat);
    assert.deepEqual(layout(dir), { flat: true });
    const expected = ids(20);
    expected[12] = 'r012-folder';
    expected.splice(13, 0, 'r013-folder');
    assert.deepEqual(await read(dir), expected);
    const folders = Object.fromEntries(ids(20).map((id) => [`${id}/traces.json`, artifact(id)]));
    folders['r010'] = 'not a folder, and not a name read';
    delete folders['r010/traces.json'];
    const mixed = make(folders);
    assert.equal(layout(mixed).inner, 'traces.json');
    assert.deepEqual(
      await read(mixed),
      ids(20).filter((id) => id !== 'r010'),
    );
  });
});
