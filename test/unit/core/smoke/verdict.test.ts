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
  'agent loop ended early on attempt 1/2 (BadRequestError: Error code: 400 - Could not find job); 0 guess(es) played',
  'Failed /complete-rollout: status=400 body={"message":"Could not find job arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/smoke-test"}',
  'Failed to report rollout result (non-fatal)',
);
/** A non-Wordle agent's lines: no guesses, so no Wordle expectation. */
const SUPPORT_LOGS = lines(
  'Failed /complete-rollout: status=400 body={"message":"Could not find job arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/smoke-test"}',
);

describe('smoke verdict', () => {
  it('passes a Wordle agent with reward -1.5 and a 400 "Could not find job" line, quoting it: four tiers', () => {
    const v = smokeVerdict({ ...base, invocation: reward({ reward: -1.5 }), logLines: GOOD_LOGS });
    assert.equal(v.ok, true);
    assert.deepEqual(
      v.checks.map((c) => `${c.id} ${c.state}`),
      ['transport pass', 'wiring pass', 'contract pass', 'pack pass'],
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
    assert.equal(v.checks.find((c) => c.id === 'wiring')?.state, 'fail');
    assert.match(v.diagnoses[0].problem, /403/);
    assert.match(v.diagnoses[0].fix, /another account/);
    assert.ok(v.diagnoses[0].evidence[0].includes('not authorized'));
  });

  it('diagnoses a timeout as no HTTP server: decorator order or missing BedrockAgentCoreApp', () => {
    const v = smokeVerdict({ ...base, invocation: { kind: 'timeout', seconds: 35 }, logLines: [] });
    assert.equal(v.ok, false);
    assert.equal(v.checks.find((c) => c.id === 'transport')?.state, 'fail');
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

  it('fails an error status instead of a reward: a job counts a failed trajectory', () => {
    const v = smokeVerdict({ ...base, invocation: reward({ status: 'error', message: 'boom' }), logLines: SUPPORT_LOGS });
    assert.equal(v.ok, false, v.summary);
    assert.equal(v.checks.find((c) => c.id === 'contract')?.state, 'fail');
    const d = v.diagnoses.find((x) => /status "error"/.test(x.problem));
    assert.ok(d && !d.warning && /failed trajectory.*cancel the job/.test(d.fix), JSON.stringify(v.diagnoses));
    assert.equal(v.summary, 'Smoke test failed: The agent returned status "error" instead of a reward.');
  });

  it('passes any numeric reward: Wordle gets only a warning for a reward other than -1.5, a support agent none', () => {
    const wordle = smokeVerdict({ ...base, invocation: reward({ reward: 0.25 }), logLines: GOOD_LOGS });
    assert.equal(wordle.ok, true, wordle.summary);
    assert.equal(wordle.reward, 0.25);
    assert.equal(wordle.checks.find((c) => c.id === 'pack')?.state, 'warn');
    assert.ok(wordle.diagnoses.some((d) => d.warning && /0\.25, not -1\.5/.test(d.problem)));
    assert.match(wordle.summary, /^Smoke test passed: invoked, reached the Job Runtime, reward 0\.25 \(warning: /);
    const support = smokeVerdict({ ...base, invocation: reward({ reward: [0.25, 0.5] }), logLines: SUPPORT_LOGS });
    assert.equal(support.ok, true, support.summary);
    assert.equal(support.summary, 'Smoke test passed: invoked, reached the Job Runtime, reward 0.25.');
    assert.deepEqual(
      support.checks.map((c) => c.id),
      ['transport', 'wiring', 'contract'],
    );
  });

  it('fails a response with no reward, and a non-numeric one', () => {
    for (const body of [{ answer: 'ok' }, { reward: 'high' }]) {
      const v = smokeVerdict({ ...base, invocation: reward(body), logLines: SUPPORT_LOGS });
      assert.equal(v.ok, false, JSON.stringify(body));
      assert.equal(v.summary, 'Smoke test failed: The response holds no reward.');
    }
  });

  it('a local run waits on no log group and says to run the test again, not to redeploy', () => {
    const v = smokeVerdict({ ...base, local: true, invocation: reward({ reward: 1 }), logLines: [] });
    assert.equal(v.ok, false);
    assert.ok(!v.diagnoses.some((d) => /FilterLogEvents/.test(d.fix)));
    assert.match(v.diagnoses[0].fix, /metadata\.endpoint/);
  });

  it('says where to look when there are no log lines at all', () => {
    const v = smokeVerdict({ ...base, invocation: reward({ reward: -1.5 }), logLines: [] });
    assert.equal(v.ok, false);
    assert.equal(v.checks.find((c) => c.id === 'wiring')?.state, 'unknown');
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
    assert.equal(v.checks.find((c) => c.id === 'wiring')?.state, 'unknown');
    assert.ok(d.evidence.some((e) => e.includes('status=failed')));
    assert.equal(v.diagnoses.length, 1, `one cause, not a second guess about Job Runtime access: ${JSON.stringify(v.diagnoses)}`);
    assert.ok(!v.diagnoses.some((x) => /Job Runtime/.test(x.problem)));
  });
});

describe('smoke verdict, an agent that raises', () => {
  const failed500: InvocationOutcome = {
    kind: 'error',
    statusCode: 424,
    message: 'Received error (500) from runtime. Check your CloudWatch logs for more information.',
  };
  const traceback = (frame: string, code: string, exception: string) =>
    [
      'Traceback (most recent call last):',
      '  File "/app/main.py", line 88, in handle_rollout',
      '    return run(payload)',
      frame,
      code,
      exception,
    ].join('\n');

  it("on the Job Runtime's 400 passes wiring but fails the test: no reward, and each such rollout fails in a job", () => {
    const exception =
      "openai.BadRequestError: Error code: 400 - {'message': 'Could not find job arn:aws:sagemaker:us-east-1:1:job/AgentRFT/smoke-test'}";
    const logLines = lines(traceback('  File "/app/main.py", line 64, in run', '    reply = policy.chat(messages)', exception));
    const v = smokeVerdict({ ...base, invocation: failed500, logLines });
    assert.equal(v.ok, false, v.summary);
    assert.deepEqual(
      v.checks.map((c) => `${c.id} ${c.state}`),
      ['transport pass', 'wiring pass', 'contract fail'],
    );
    assert.equal(v.diagnoses.length, 1, JSON.stringify(v.diagnoses));
    assert.ok(!v.diagnoses[0].warning);
    assert.match(v.diagnoses[0].fix, /failed trajectory, and failed trajectories cancel the job/);
  });

  it("before the policy call fails, naming the agent's own line", () => {
    const logLines = lines(traceback('  File "/app/main.py", line 57, in run', '    ticket = task["prompt"]', "KeyError: 'prompt'"));
    const v = smokeVerdict({ ...base, invocation: failed500, logLines });
    assert.equal(v.ok, false);
    assert.equal(v.checks.find((c) => c.id === 'wiring')?.state, 'fail');
    assert.match(v.summary, /raised KeyError: 'prompt' before calling the policy \(main\.py line 57, in run: ticket = task\["prompt"\]\)/);
  });
});
