import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  defaultSignalChecksDir,
  rewardVersionOf,
  signalCheckId,
  signalChecksIn,
  type KeptSignalCheck,
} from '../../../../src/services/signal/checks';
import { signalReport } from '../../../../src/core/signal/report';

const key = { dataset: 's3://bucket/train.jsonl', runtime: 'arn:aws:bedrock-agentcore:us-east-1:1:runtime/a', reward: 'arn:lambda:r:3' };
const check = (over: Partial<KeptSignalCheck> = {}): KeptSignalCheck => ({
  key,
  at: '2026-12-01T10:00:00.000Z',
  route: 'cloud',
  status: 'running',
  jobName: 'signal-1',
  groupSize: 4,
  rows: 8,
  ...over,
});

describe('kept signal checks', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'mtrl-checks-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the latest check per dataset + runtime + reward version, and lists every key newest first', async () => {
    const checks = signalChecksIn(path.join(dir, 'nested'));
    assert.equal(await checks.latest(key), undefined);
    assert.deepEqual(await checks.list(), []);
    await checks.keep(check());
    await checks.keep(check({ status: 'done', rollouts: 'signal-1' }));
    const otherReward = { ...key, reward: 'arn:lambda:r:4' };
    await checks.keep(check({ key: otherReward, at: '2026-12-01T11:00:00.000Z', status: 'failed', error: 'ran out' }));
    assert.equal((await checks.latest(key))?.status, 'done');
    assert.equal((await checks.latest(otherReward))?.error, 'ran out');
    assert.deepEqual(
      (await checks.list()).map((c) => c.key.reward),
      ['arn:lambda:r:4', 'arn:lambda:r:3'],
    );
    assert.deepEqual(
      readdirSync(path.join(dir, 'nested')).sort(),
      [`${signalCheckId(key)}.json`, `${signalCheckId(otherReward)}.json`].sort(),
    );
  });

  it('skips a damaged or foreign file with a sentence, and still lists the others', async () => {
    const heard: string[] = [];
    const checks = signalChecksIn(dir, (s) => heard.push(s));
    await checks.keep(check());
    writeFileSync(path.join(dir, 'broken.json'), '{"key": {"dataset"');
    writeFileSync(path.join(dir, 'other.json'), '{"hello": 1}');
    writeFileSync(path.join(dir, `${signalCheckId({ ...key, reward: 'x' })}.json`), 'not json');
    const listed = await checks.list();
    assert.equal(listed.length, 1);
    assert.equal(heard.length, 3, heard.join('\n'));
    assert.ok(heard.some((s) => /broken\.json: it is not JSON/.test(s)));
    assert.ok(heard.some((s) => /other\.json: it is not a kept signal check/.test(s)));
    assert.equal(await checks.latest({ ...key, reward: 'x' }), undefined);
  });

  it('skips a file of the right shape whose report or figures are malformed or break a number rule, naming the field; valid checks still listed', async () => {
    const heard: string[] = [];
    const checks = signalChecksIn(dir, (s) => heard.push(s));
    const transcripts = [0, 1].map((r, i) => ({
      id: `t${i}`,
      task: { prompt: 'p' },
      groupKey: 'g',
      status: 'completed' as const,
      turns: [],
      source: 'trace' as const,
      reward: r,
    }));
    const report = signalReport(transcripts);
    await checks.keep(check({ status: 'done', report }));
    const good = JSON.stringify(check({ key: { ...key, reward: 'r2' }, status: 'done', report }));
    const damaged: [string, string, RegExp][] = [
      ['report-string', good.replace(/"report":\{.*\}\}$/, '"report":"broken"}'), /its report is "broken"/],
      ['rollouts', good.replace('"rollouts":2', '"rollouts":"2"'), /report\.rollouts is "2", not a whole number/],
      ['infinite', good.replace(/"mean":[^,]+/, '"mean":1e999'), /report\.rewards\.mean is Infinity, which breaks the reward rule/],
      ['huge', good.replace(/"mean":[^,]+/, '"mean":1e308'), /report\.rewards\.mean is 1e\+308, which breaks the reward rule/],
      [
        'tokens',
        good.replace('"rows":8', '"rows":8,"tokensPerRollout":{"prefill":"Infinity","sample":1}'),
        /tokensPerRollout\.prefill is "Infinity"/,
      ],
      ['rows', good.replace('"rows":8', '"rows":-3'), /rows is -3, not a whole number/],
      [
        'components',
        good.replace(
          '"meanWithinGroupSpread":',
          '"components":[{"name":"shaping","groups":1,"meanWithinGroupSpread":"x","flatShare":0}],"meanWithinGroupSpread":',
        ),
        /report\.components\[0\]\.meanWithinGroupSpread is "x", not a number/,
      ],
      ['line\nbreak', good.replace('"rows":8', '"rows":"NaN"'), /rows is "NaN"/],
    ];
    for (const [name, text] of damaged) writeFileSync(path.join(dir, `${name}.json`), text);
    const listed = await checks.list();
    assert.equal(listed.length, 1, 'the valid check is still listed');
    assert.equal(heard.length, damaged.length, heard.join('\n'));
    for (const [name, , sentence] of damaged)
      assert.ok(
        heard.some((s) => s.includes(name.replace('\n', ' ')) && sentence.test(s)),
        `${name}: ${heard.join('\n')}`,
      );
    assert.ok(
      heard.every((s) => !s.includes('\n')),
      'a line break in a file name cannot forge a line',
    );
  });

  it('writes aside and renames: no temp file is left, and the file is whole JSON', async () => {
    const checks = signalChecksIn(dir);
    await Promise.all(Array.from({ length: 20 }, (_, i) => checks.keep(check({ rows: i + 1 }))));
    assert.deepEqual(readdirSync(dir), [`${signalCheckId(key)}.json`]);
    const kept = JSON.parse(readFileSync(path.join(dir, `${signalCheckId(key)}.json`), 'utf8')) as KeptSignalCheck;
    assert.ok(kept.rows >= 1 && kept.rows <= 20);
  });

  it('names a reward file’s version by its content, and keeps checks in the platform’s cache directory', () => {
    assert.equal(rewardVersionOf('def reward(): pass'), rewardVersionOf(Buffer.from('def reward(): pass')));
    assert.notEqual(rewardVersionOf('a'), rewardVersionOf('b'));
    assert.match(rewardVersionOf('a'), /^sha256:[0-9a-f]{64}$/);
    assert.equal(defaultSignalChecksDir({ HOME: '/h' }, 'linux'), '/h/.cache/mtrl-workbench/signal-checks');
    assert.equal(defaultSignalChecksDir({ HOME: '/h', XDG_CACHE_HOME: '/c' }, 'linux'), '/c/mtrl-workbench/signal-checks');
    assert.equal(defaultSignalChecksDir({ HOME: '/h' }, 'darwin'), '/h/Library/Caches/mtrl-workbench/signal-checks');
  });
});
