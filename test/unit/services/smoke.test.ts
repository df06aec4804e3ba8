import { strict as assert } from 'node:assert';
import { AwsClients } from '../../../src/aws/clients';
import { runSmokeTest, type SmokeBackend } from '../../../src/core/smoke';
import { awsSmokeBackend } from '../../../src/services/smoke';
import { startEmulator, type Emulator } from '../../../src/emulator/server';

const RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234';
const NO_SERVER = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent_no_server-NoServer12';
const ERROR_STATUS = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent_error_status-ErrStat123';
const SUPPORT = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/support_agent-Support123';
const KEY_ERROR = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/support_agent_key_error-KeyError12';

describe('smoke test against the emulator (real SDK over HTTP)', function () {
  this.timeout(30_000);
  let emulator: Emulator;
  let aws: AwsClients;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    emulator = await startEmulator({ noServerTimeoutMs: 5_000 });
    aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
  });

  after(async () => {
    aws.reset();
    await emulator.close();
    process.env.AWS_ACCESS_KEY_ID = saved.id;
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  it('passes on a good runtime: reward -1.5 and the 400 "Could not find job" line', async () => {
    const result = await runSmokeTest(awsSmokeBackend(aws), { runtimeArn: RUNTIME, logWaitMs: 5_000, pollIntervalMs: 200 });
    assert.equal(result.verdict.ok, true, result.verdict.summary + JSON.stringify(result.verdict.diagnoses));
    assert.equal(result.callerAccount, '111122223333');
    assert.equal(result.jobArn, 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/smoke-test');
    assert.equal(result.verdict.reward, -1.5);
    assert.ok(
      result.verdict.evidence.some((e) => /status=400.*Could not find job/.test(e)),
      result.verdict.evidence.join('\n'),
    );
  });

  it('gives the timeout diagnosis for a runtime with no HTTP server', async () => {
    const result = await runSmokeTest(awsSmokeBackend(aws), {
      runtimeArn: NO_SERVER,
      invokeTimeoutMs: 1_000,
      logWaitMs: 300,
      pollIntervalMs: 100,
    });
    assert.equal(result.verdict.ok, false);
    assert.ok(
      result.verdict.diagnoses.some((d) => /did not answer within 1 s/.test(d.problem) && /@app\.entrypoint.*outermost/.test(d.fix)),
      JSON.stringify(result.verdict.diagnoses),
    );
  });

  it("also recognises the service's own 30 s failure when it comes first", async () => {
    const fast = await startEmulator({ noServerTimeoutMs: 200, history: false });
    const local = new AwsClients(() => ({ region: 'us-east-1', endpoint: fast.url }));
    try {
      const result = await runSmokeTest(awsSmokeBackend(local), {
        runtimeArn: NO_SERVER,
        invokeTimeoutMs: 10_000,
        logWaitMs: 300,
        pollIntervalMs: 100,
      });
      assert.ok(
        result.verdict.diagnoses.some((d) => /timed out|did not respond/.test(d.problem) && /outermost/.test(d.fix)),
        JSON.stringify(result.verdict.diagnoses),
      );
    } finally {
      local.reset();
      await fast.close();
    }
  });

  it('gives the 403 diagnosis when the fake job ARN names another account', async () => {
    // Credentials of another account than the runtime's: the payload carries that account.
    const backend: SmokeBackend = { ...awsSmokeBackend(aws), callerAccount: async () => '444455556666' };
    const result = await runSmokeTest(backend, { runtimeArn: RUNTIME, logWaitMs: 5_000, pollIntervalMs: 200 });
    assert.equal(result.verdict.ok, false);
    assert.equal(result.verdict.checks.find((c) => c.id === 'wiring')?.state, 'fail');
    const forbidden = result.verdict.diagnoses.find((d) => /403/.test(d.problem));
    assert.ok(forbidden, JSON.stringify(result.verdict.diagnoses));
    assert.match(forbidden.fix, /another account/);
    assert.ok(forbidden.evidence.some((e) => /not authorized to access this resource/.test(e)));
  });

  it('explains a runtime that returns a failure instead of a reward', async () => {
    const result = await runSmokeTest(awsSmokeBackend(aws), { runtimeArn: ERROR_STATUS, logWaitMs: 500, pollIntervalMs: 100 });
    assert.equal(result.verdict.ok, false);
    assert.ok(
      result.verdict.diagnoses.some((d) => /trajectory failed/.test(d.problem)),
      JSON.stringify(result.verdict.diagnoses),
    );
  });

  it("fails a non-Wordle agent that raises on the Job Runtime's 400 (no reward), saying the wiring works", async () => {
    const result = await runSmokeTest(awsSmokeBackend(aws), { runtimeArn: SUPPORT, logWaitMs: 2_000, pollIntervalMs: 100 });
    assert.equal(result.verdict.ok, false, result.verdict.summary + JSON.stringify(result.verdict.diagnoses));
    assert.deepEqual(
      result.verdict.checks.map((c) => `${c.id} ${c.state}`),
      ['transport pass', 'wiring pass', 'contract fail'],
    );
    assert.ok(result.verdict.diagnoses.some((d) => !d.warning && /wiring works.*cancel the job/.test(d.fix)));
  });

  it("fails an agent that raises KeyError: 'prompt' before the policy call, naming its line", async () => {
    const result = await runSmokeTest(awsSmokeBackend(aws), { runtimeArn: KEY_ERROR, logWaitMs: 2_000, pollIntervalMs: 100 });
    assert.equal(result.verdict.ok, false);
    assert.match(result.verdict.summary, /KeyError: 'prompt' before calling the policy \(main\.py line 57/);
  });

  it('says so when the runtime does not exist', async () => {
    const result = await runSmokeTest(awsSmokeBackend(aws), { runtimeArn: RUNTIME.replace('AbCdEf1234', 'Missing000'), logWaitMs: 0 });
    assert.ok(
      result.verdict.diagnoses.some((d) => /HTTP 404/.test(d.problem)),
      JSON.stringify(result.verdict.diagnoses),
    );
  });
});
