import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli';
import { refusedPort, startBlackHole } from './aws/blackHole';
import { ceiling } from '../host/lib/ceiling';

const root = path.resolve(__dirname, '../..');
const RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string; ms: number }> {
  let out = '';
  let err = '';
  const started = Date.now();
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err, ms: Date.now() - started };
}

describe('mtrl (the command line itself)', function () {
  this.timeout(ceiling(30_000));
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  let hole: Awaited<ReturnType<typeof startBlackHole>>;

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    hole = await startBlackHole();
  });

  after(async () => {
    await hole.close();
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    else process.env.AWS_ACCESS_KEY_ID = saved.id;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  });

  it('--help lists every command without loading any command, the SDK or the emulator', () => {
    const script = `
      const { main } = require('./src/cli');
      main(['--help'], { out: (t) => process.stdout.write(t + '\\n'), err: () => undefined, stdin: () => [] }).then(() => {
        const loaded = Object.keys(require.cache).map((f) => f.replace(${JSON.stringify(root + path.sep)}, ''));
        process.stdout.write(JSON.stringify(loaded.filter((f) => /^src[\\\\/](cli|emulator|aws)|@aws-sdk/.test(f)).sort()));
      });`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, encoding: 'utf8' });
    for (const name of ['smoke', 'lint', 'rollouts', 'reward', 'validate', 'emulator']) assert.match(out, new RegExp(`^  ${name} `, 'm'));
    const loaded = (JSON.parse(out.slice(out.lastIndexOf('\n') + 1)) as string[]).map((f) => f.replace(/\\/g, '/'));
    assert.deepEqual(loaded, ['src/cli.ts', 'src/cli/command.ts', 'src/cli/commands.ts']);
  });

  it('stops a command at --deadline with a sentence, and refuses a bad deadline', async () => {
    const bad = await run('validate', 'x.jsonl', '--deadline', 'soon');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--deadline takes a number of seconds, not "soon"/);
    const { code, err, ms } = await run('validate', 's3://mtrl-demo/train.jsonl', '--endpoint', hole.url, '--deadline=2');
    assert.equal(code, 2);
    assert.match(err, new RegExp(`^mtrl validate: Reading s3://mtrl-demo/train.jsonl failed: cannot reach ${hole.url} \\(timeout\\)`));
    // A few seconds past the deadline for the CLI to start and say so, more on a loaded machine.
    assert.ok(ms < 2_000 + ceiling(2_000), `${ms} ms`);
  });

  it('validate s3:// against an endpoint that never answers ends with a sentence naming it', async () => {
    const { code, err, ms } = await run('validate', 's3://mtrl-demo/train.jsonl', '--endpoint', hole.url, '--deadline', '3');
    assert.equal(code, 2);
    assert.equal(err.trim().split('\n').length, 1, err);
    assert.match(err, new RegExp(`cannot reach ${hole.url}`));
    // A few seconds past the deadline for the CLI to start and say so, more on a loaded machine.
    assert.ok(ms < 3_000 + ceiling(2_000), `${ms} ms`);
  });

  it('smoke --timeout 5 against an endpoint that never answers ends within the timeout plus a few seconds', async () => {
    const { code, err, ms } = await run('smoke', '--runtime', RUNTIME, '--endpoint', hole.url, '--timeout', '5', '--log-wait', '1');
    assert.equal(code, 2);
    assert.match(err, new RegExp(`mtrl smoke: Asking STS for your account failed: cannot reach ${hole.url} \\(timeout\\)`));
    // A few seconds past the deadline for the CLI to start and say so, more on a loaded machine.
    assert.ok(ms < 5_000 + ceiling(2_000), `${ms} ms`);
  });

  it('a refused --endpoint is named in the sentence, not "AWS"', async () => {
    const refused = await refusedPort();
    const { code, err } = await run('validate', 's3://mtrl-demo/train.jsonl', '--endpoint', refused);
    assert.equal(code, 2);
    assert.match(err, new RegExp(`cannot reach ${refused} \\(ECONNREFUSED\\)`));
    assert.doesNotMatch(err, /cannot reach AWS/);
  });
});

describe('mtrl (process): EPIPE', function () {
  this.timeout(ceiling(60_000));

  it('a reader that closes the pipe early ends the output quietly (no EPIPE stack trace)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-epipe-')), 'many-train.jsonl');
    const row = JSON.stringify({ prompt: JSON.stringify({ prompt: 'Guess the 5-letter word', answer: 'crane', id: 'x' }) });
    writeFileSync(file, `${row}\n`.repeat(20_000));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'src/cli.ts'), 'validate', file, '--max-findings', '100000'],
      { cwd: root },
    );
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    // Read the first line, then close the pipe as `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(stderr, '');
    assert.equal(code, 1);
  });
});
