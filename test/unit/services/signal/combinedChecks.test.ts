import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signalChecksIn, type KeptSignalCheck } from '../../../../src/services/signal/checks';
import { combinedSignalChecks } from '../../../../src/services/signal/combinedChecks';

const store = () => signalChecksIn(mkdtempSync(path.join(tmpdir(), 'mtrl-combined-')));
const check = (dataset: string, at: string, route: 'cloud' | 'local'): KeptSignalCheck => ({
  key: { dataset, runtime: 'agent.py', reward: 'sha256:ab' },
  at,
  route,
  status: 'done',
  groupSize: 4,
  rows: 8,
});

describe("kept signal checks: the extension's store and the command line's read as one", () => {
  it('keeps in its own store, lists both newest first, and per key the newer check wins', async () => {
    const own = store();
    const cli = store();
    const both = combinedSignalChecks(own, cli);
    await cli.keep(check('train.jsonl', '2026-12-01T10:00:00Z', 'local'));
    await both.keep(check('train.jsonl', '2026-12-01T09:00:00Z', 'cloud'));
    await cli.keep(check('hard.jsonl', '2026-12-01T08:00:00Z', 'local'));
    assert.equal((await own.list()).length, 1, 'kept only in its own store');
    assert.equal((await cli.list()).length, 2);
    assert.deepEqual(
      (await both.list()).map((c) => [c.key.dataset, c.route]),
      [
        ['train.jsonl', 'local'],
        ['hard.jsonl', 'local'],
      ],
    );
    assert.equal((await both.latest(check('train.jsonl', '', 'local').key))?.route, 'local');
    await both.keep(check('train.jsonl', '2026-12-01T11:00:00Z', 'cloud'));
    assert.equal((await both.latest(check('train.jsonl', '', 'local').key))?.route, 'cloud');
    assert.equal(await both.latest(check('none.jsonl', '', 'local').key), undefined);
  });
});
