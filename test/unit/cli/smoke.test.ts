import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { ceiling } from '../../host/lib/ceiling';

const RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

describe('mtrl smoke', function () {
  this.timeout(ceiling(30_000));
  let emulator: Emulator;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    emulator = await startEmulator({ noServerTimeoutMs: 200, history: false });
  });

  after(async () => {
    await emulator.close();
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    else process.env.AWS_ACCESS_KEY_ID = saved.id;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  });

  it('exits 0 and prints the checklist for a good runtime', async () => {
    const { code, out } = await run('smoke', '--runtime', RUNTIME, '--endpoint', emulator.url, '--log-wait', '5');
    assert.equal(code, 0, out);
    assert.match(out, /^Smoke test passed/);
    assert.match(out, /\[ok\] {3}Reached the Job Runtime \(400 "Could not find job"\)/);
    assert.match(out, /\[ok\] {3}Wordle: reward -1\.5/);
  });

  it('takes the endpoint from AWS_ENDPOINT_URL with no credentials, as every AWS command does (the emulator test key)', async () => {
    // A new user's machine: no keys, no AWS files, no instance metadata; only the emulator's URL in the environment.
    const changed = {
      AWS_ENDPOINT_URL: emulator.url,
      AWS_ACCESS_KEY_ID: undefined,
      AWS_SECRET_ACCESS_KEY: undefined,
      AWS_PROFILE: undefined,
      AWS_CONFIG_FILE: '/nonexistent/mtrl/config',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/mtrl/credentials',
      AWS_EC2_METADATA_DISABLED: 'true',
    };
    const before = Object.fromEntries(Object.keys(changed).map((k) => [k, process.env[k]]));
    const apply = (env: Record<string, string | undefined>) => {
      for (const [k, v] of Object.entries(env)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    };
    apply(changed);
    try {
      const { code, out, err } = await run('smoke', '--runtime', RUNTIME, '--log-wait', '5');
      assert.equal(code, 0, err);
      assert.match(out, /^Smoke test passed/);
    } finally {
      apply(before);
    }
  });

  it('exits 1 with the diagnosis as JSON for a runtime with no HTTP server', async () => {
    const { code, out } = await run(
      'smoke',
      '--runtime',
      RUNTIME.replace('wordle_agent-AbCdEf1234', 'wordle_agent_no_server-NoServer12'),
      '--endpoint',
      emulator.url,
      '--log-wait',
      '0.3',
      '--json',
    );
    assert.equal(code, 1);
    const result = JSON.parse(out);
    assert.equal(result.verdict.ok, false);
    assert.ok(result.verdict.diagnoses.some((d: { fix: string }) => /outermost/.test(d.fix)));
  });

  it('exits 2 with one line for a bad ARN or a bad number', async () => {
    const bad = await run('smoke', '--runtime', 'wordle_agent');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^mtrl smoke: "wordle_agent" is not an agent runtime ARN/);
    assert.equal((await run('smoke', '--runtime', RUNTIME, '--timeout', 'soon')).code, 2);
    assert.equal((await run('smoke')).code, 2);
  });
});
