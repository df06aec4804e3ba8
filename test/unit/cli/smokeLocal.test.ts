import { strict as assert } from 'node:assert';
import path from 'node:path';
import { main } from '../../../src/cli';
import { python } from '../python';
import { ceiling } from '../../host/lib/ceiling';

const fixtures = path.resolve(__dirname, '../../fixtures/smoke');
// The two agents the editor's host check runs too live in the host workspace.
const agents = path.resolve(__dirname, '../../fixtures/workspace/smoke');

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

describe('mtrl smoke --local', function () {
  this.timeout(ceiling(30_000));

  it('passes an agent that gets the 400 "Could not find job" and returns a reward all the same: exit 0, the same wording as the deployed test', async () => {
    const { code, out } = await run('smoke', '--local', path.join(agents, 'catching_agent.py'), '--python', python);
    assert.equal(code, 0, out);
    assert.match(out, /^Smoke test passed: invoked, reached the Job Runtime, reward 0\./);
    assert.match(out, /\[ok\] {3}Reached the Job Runtime \(400 "Could not find job"\)/);
    assert.match(
      out,
      /POST \/rollouts\/r1\/v1\/chat\/completions: status=400 Could not find job arn:aws:sagemaker:us-east-1:000000000000:job\/AgentRFT\/smoke-test/,
    );
    assert.match(out, /model call failed: 400/, "the agent's stderr is quoted");
    assert.match(out, /^lint: no findings$/m);
  });

  it('fails an agent that returns an error status: exit 1, the status on the first line', async () => {
    const { code, out } = await run('smoke', '--local', path.join(agents, 'error_status_agent.py'), '--python', python, '--json');
    assert.equal(code, 1, out);
    const result = JSON.parse(out) as { verdict: { ok: boolean; summary: string }; local: { runtimeUrl: string } };
    assert.equal(result.verdict.ok, false);
    assert.equal(result.verdict.summary, 'Smoke test failed: The agent returned status "error" instead of a reward.');
    assert.match(result.local.runtimeUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('fails an async entrypoint that lets the 400 escape: no reward, the wiring said to work', async () => {
    const { code, out } = await run('smoke', '--local', path.join(fixtures, 'raising_agent.py'), '--python', python);
    assert.equal(code, 1, out);
    assert.match(out, /^Smoke test failed: The agent raised when the Job Runtime answered 400 "Could not find job"/);
    assert.match(out, /fix: {5}The wiring works\./);
  });

  it('exits 2 when it cannot run: no such python, no such file, --local with --runtime', async () => {
    const agent = path.join(agents, 'catching_agent.py');
    const noPython = await run('smoke', '--local', agent, '--python', '/nonexistent/python3');
    assert.equal(noPython.code, 2, noPython.out + noPython.err);
    const noFile = await run('smoke', '--local', path.join(fixtures, 'missing.py'), '--python', python);
    assert.equal(noFile.code, 2);
    assert.match(noFile.err, /cannot read .*missing\.py/);
    const both = await run('smoke', '--local', agent, '--runtime', 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/x');
    assert.equal(both.code, 2);
  });
});
