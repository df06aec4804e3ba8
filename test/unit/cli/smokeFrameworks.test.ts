import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { python } from '../python';
import { ceiling } from '../../host/lib/ceiling';

// Issue 47: `mtrl smoke --local` on agents as users write them: the real official openai client (from the cached
// environment scripts/boto3.mjs makes: npm run test:boto3 -- --install) and Strands' request shape (its stand-in).
const fixtures = path.resolve(__dirname, '../../fixtures');
const venvPython = path.join(homedir(), '.cache/mtrl-workbench/venv-boto3-1.43.107/bin/python');

/** Why the openai client cannot be used here, or undefined when it can. */
function openaiMissing(): string | undefined {
  if (!existsSync(venvPython)) return `no cached environment at ${venvPython} (make it with node scripts/boto3.mjs --install)`;
  const check = spawnSync(venvPython, ['-c', 'import openai'], { encoding: 'utf8' });
  return check.status === 0 ? undefined : `openai does not import there: ${check.stderr.trim().split('\n').pop()}`;
}

async function run(env: Record<string, string>, ...argv: string[]): Promise<{ code: number; out: string }> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let out = '';
  try {
    const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (out += t + '\n'), stdin: () => [] });
    return { code, out };
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

describe('mtrl smoke --local on framework agents', function () {
  this.timeout(ceiling(45_000));

  describe('the official openai client', function () {
    before(function () {
      const missing = openaiMissing();
      if (missing) {
        // Skipped, never passed: the reason is printed beside mocha's "pending".
        console.log(`      skipped: the openai client is not installed: ${missing}`);
        this.skip();
      }
    });

    it('passes an agent that catches the client’s APIStatusError for the 400 and returns a reward; the call is the client’s stream', async () => {
      const { code, out } = await run({}, 'smoke', '--local', path.join(fixtures, 'smoke/openai_client_agent.py'), '--python', venvPython);
      assert.equal(code, 0, out);
      assert.match(out, /^Smoke test passed: invoked, reached the Job Runtime, reward 0\./m);
      assert.match(out, /POST \/rollouts\/r1\/v1\/chat\/completions: status=400 Could not find job/);
      assert.match(out, /model call failed: 400/, "the agent's stderr is quoted");
    });

    it('fails the same agent when the client’s error escapes: exit 1, no reward', async () => {
      const agent = path.join(fixtures, 'smoke/openai_client_agent.py');
      const { code, out } = await run({ AGENT_RAISES: '1' }, 'smoke', '--local', agent, '--python', venvPython);
      assert.equal(code, 1, out);
      assert.match(out, /^Smoke test failed: The agent raised when the Job Runtime answered 400 "Could not find job"/m);
    });
  });

  it('passes a Strands-shaped agent (stream with include_usage, list contents, its bearer header) that catches the 400', async () => {
    const standins = path.join(fixtures, 'signal/standins');
    const { code, out } = await run(
      { PYTHONPATH: standins },
      'smoke',
      '--local',
      path.join(fixtures, 'smoke/strands_agent.py'),
      '--python',
      python,
    );
    assert.equal(code, 0, out);
    assert.match(out, /^Smoke test passed: invoked, reached the Job Runtime, reward 0\./m);
    assert.match(out, /POST \/rollouts\/r1\/v1\/chat\/completions: status=400 Could not find job/);
    assert.match(out, /model call failed: 400 from/);
  });
});
