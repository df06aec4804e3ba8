import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { startEmulator } from '../../../src/emulator/server';
import { ceiling } from '../../host/lib/ceiling';

// Issue 46's job-file items: 40,000 tags, duplicate keys, a FIFO given as the job file.
const demoText = readFileSync(path.resolve(__dirname, '../../fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8');

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

describe('mtrl launch: the job file itself', function () {
  this.timeout(ceiling(30_000));
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-launch-file-'));

  it('40,000 tags are refused before any AWS call, naming SageMaker’s 50', async () => {
    const job = JSON.parse(demoText) as Record<string, unknown>;
    job.Tags = Array.from({ length: 40_000 }, (_, i) => ({ Key: `k${i}`, Value: 'v' }));
    const at = path.join(dir, 'tags.mtrl.json');
    writeFileSync(at, JSON.stringify(job));
    const r = await run('launch', at, '--endpoint', 'http://127.0.0.1:9');
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /✗ Tags holds 40,000 tags; SageMaker takes at most 50\./);
  });

  it('a tag key over 128 characters is refused too', async () => {
    const job = JSON.parse(demoText) as Record<string, unknown>;
    job.Tags = [{ Key: 'k'.repeat(129), Value: 'v' }];
    const at = path.join(dir, 'long-key.mtrl.json');
    writeFileSync(at, JSON.stringify(job));
    const r = await run('launch', at);
    assert.equal(r.code, 1);
    assert.match(r.out, /A tag's Key is 1 to 128 characters; one is 129\./);
  });

  it('a FIFO as the job file is a usage sentence at once, not a read that outlives the deadline', async () => {
    const fifo = path.join(dir, 'job.mtrl.json');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const r = await run('launch', fifo, '--deadline', '5');
    assert.equal(r.code, 2);
    assert.match(r.err, /job\.mtrl\.json: not a regular file; give the \*\.mtrl\.json job file/);
    assert.ok(Date.now() - started < 3000, 'answered before the deadline');
    // The signal check's training job file is read synchronously: no deadline could end that read.
    const check = await run('signal', '--launch', '--training', fifo, '--rows', '4', '--reward', 'v1', '--deadline', '5');
    assert.equal(check.code, 2);
    assert.match(check.err, /cannot read .*job\.mtrl\.json: not a regular file/);
  });

  it('a key given twice is a warning in the pre-flight naming it; the launch is not blocked by it', async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    const emulator = await startEmulator({});
    try {
      const at = path.join(dir, 'twice.mtrl.json');
      writeFileSync(at, demoText.replace(/\{/, '{\n  "JobName": "first-name",'));
      const r = await run('launch', at, '--endpoint', emulator.url);
      assert.match(r.out, /⚠ JobName appears more than once in the file; JSON keeps only the last value\. Fix: keep one JobName/);
      const json = JSON.parse((await run('launch', at, '--json', '--endpoint', emulator.url)).out) as {
        findings: { code: string; severity: string }[];
        verdict: string;
      };
      assert.deepEqual(json.findings[0], {
        code: 'jobFile',
        severity: 'warning',
        message: 'JobName appears more than once in the file; JSON keeps only the last value.',
        fix: 'keep one JobName and remove the others.',
      });
    } finally {
      await emulator.close();
      for (const [k, v] of [
        ['AWS_ACCESS_KEY_ID', saved.id],
        ['AWS_SECRET_ACCESS_KEY', saved.secret],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });
});
