import { strict as assert } from 'node:assert';
import { smokeVerdict, type InvocationOutcome, type LogLine } from '../../../../src/core/smoke';

const base = {
  runtimeArn: 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234',
  logGroup: '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT',
  callerAccount: '111122223333',
  logWaitSeconds: 60,
};
const lines = (...messages: string[]): LogLine[] => messages.map((message, i) => ({ timestamp: 1000 + i, message }));
const reward = (value: unknown): InvocationOutcome => ({ kind: 'response', body: JSON.stringify(value) });

const GOOD_LOGS = lines(
  'Failed /complete-rollout: status=400 body={"message":"Could not find job arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/smoke-test"}',
  'Failed to report rollout result (non-fatal)',
);

describe('smoke verdict', () => {
  it('passes with reward -1.5 and a 400 "Could not find job" line, quoting it', () => {
    const v = smokeVerdict({ ...base, invocation: reward({ reward: -1.5 }), logLines: GOOD_LOGS });
    assert.equal(v.ok, true);
    assert.deepEqual(
      v.checks.map((c) => c.state),
      ['pass', 'pass', 'pass'],
    );
    assert.deepEqual(v.diagnoses, []);
    assert.ok(v.evidence.some((e) => e.includes('Could not find job')));
    assert.match(v.summary, /passed/);
  });

  it('diagnoses a 403 as a job ARN of another account', () => {
    const v = smokeVerdict({
      ...base,
      invocation: reward({ reward: -1.5 }),
      logLines: lines('Failed /complete-rollout: status=403 body={"message":"User is not authorized to access this resource"}'),
    });
    assert.equal(v.ok, false);
    assert.equal(v.checks.find((c) => c.id === 'auth')?.state, 'fail');
    assert.match(v.diagnoses[0].problem, /403/);
    assert.match(v.diagnoses[0].fix, /another account/);
    assert.ok(v.diagnoses[0].evidence[0].includes('not authorized'));
  });

  it('diagnoses a timeout as no HTTP server: decorator order or missing BedrockAgentCoreApp', () => {
    const v = smokeVerdict({ ...base, invocation: { kind: 'timeout', seconds: 35 }, logLines: [] });
    assert.equal(v.ok, false);
    assert.equal(v.checks.find((c) => c.id === 'payload')?.state, 'fail');
    const timeout = v.diagnoses.find((d) => /35 s/.test(d.problem));
    assert.ok(timeout);
    assert.match(timeout.fix, /@app\.entrypoint.*outermost/);
    assert.match(timeout.fix, /BedrockAgentCoreApp/);
  });

  it('treats a service-side timeout error like our own deadline', () => {
    const v = smokeVerdict({
      ...base,
      invocation: { kind: 'error', message: 'Runtime did not respond: request timed out after 30 seconds', statusCode: 504 },
      logLines: [],
    });
    assert.ok(v.diagnoses.some((d) => /outermost/.test(d.fix)));
  });

  it('flags an error status instead of a reward: it cancels whole jobs', () => {
    const v = smokeVerdict({ ...base, invocation: reward({ status: 'error', message: 'boom' }), logLines: GOOD_LOGS });
    assert.equal(v.ok, false);
    assert.equal(v.checks.find((c) => c.id === 'reward')?.state, 'fail');
    assert.ok(v.diagnoses.some((d) => /status "error"/.test(d.problem) && /cancel the whole training job/.test(d.fix)));
  });

  it('flags a reward other than -1.5', () => {
    const v = smokeVerdict({ ...base, invocation: reward({ reward: 0.25 }), logLines: GOOD_LOGS });
    assert.equal(v.ok, false);
    assert.equal(v.reward, 0.25);
    assert.ok(v.diagnoses.some((d) => /0\.25, not -1\.5/.test(d.problem)));
  });

  it('says where to look when there are no log lines at all', () => {
    const v = smokeVerdict({ ...base, invocation: reward({ reward: -1.5 }), logLines: [] });
    assert.equal(v.ok, false);
    assert.equal(v.checks.find((c) => c.id === 'auth')?.state, 'unknown');
    assert.ok(v.diagnoses.some((d) => d.problem.includes(base.logGroup) && /FilterLogEvents/.test(d.fix)));
  });

  it('reports an invocation error with its message', () => {
    const v = smokeVerdict({ ...base, invocation: { kind: 'error', message: 'Runtime not found', statusCode: 404 }, logLines: [] });
    assert.ok(v.diagnoses.some((d) => d.problem.includes('HTTP 404') && d.problem.includes('Runtime not found')));
  });
});

describe('smoke verdict, agent failure', () => {
  it('explains a failed trajectory (HTTP 500 and "status=failed" in the logs) as a job-cancelling error', () => {
    const v = smokeVerdict({
      ...base,
      invocation: {
        kind: 'error',
        statusCode: 500,
        message:
          'InvokeAgentRuntime failed: the service had an internal error (500): The agent signaled that the trajectory failed. Try again later.',
      },
      logLines: lines(
        "Rollout error: trajectory_id=r1 error=RuntimeError('environment crashed')",
        'CompleteRollout: trajectory_id=r1 status=failed',
      ),
    });
    assert.equal(v.ok, false);
    const d = v.diagnoses.find((x) => /signaled that the trajectory failed/.test(x.problem));
    assert.ok(d, JSON.stringify(v.diagnoses));
    assert.match(d.fix, /always return a reward/);
    assert.ok(d.evidence.some((e) => e.includes('status=failed')));
    assert.equal(v.diagnoses.length, 1, `one cause, not a second guess about Job Runtime access: ${JSON.stringify(v.diagnoses)}`);
    assert.ok(!v.diagnoses.some((x) => /Job Runtime/.test(x.problem)));
  });
});
