import { strict as assert } from 'node:assert';
import { runSmokeTest, SmokeCancelled, type InvocationOutcome, type LogLine, type SmokeBackend } from '../../../../src/core/smoke';

const ARN = 'arn:aws:bedrock-agentcore:us-west-2:111122223333:runtime/wordle_agent-AbCdEf1234';

/** A backend whose log group fills after `linesAfterPolls` polls; records what it was asked. */
function fakeBackend(outcome: (signal: AbortSignal) => Promise<InvocationOutcome>, logs: LogLine[], linesAfterPolls = 0) {
  const calls = { payloads: [] as string[], sessions: [] as string[], groups: [] as string[], regions: [] as string[], polls: 0 };
  const backend: SmokeBackend = {
    callerAccount: async () => '111122223333',
    invoke: (request, signal) => {
      calls.payloads.push(request.payload);
      calls.sessions.push(request.sessionId);
      calls.regions.push(request.region);
      return outcome(signal);
    },
    logLines: async (request) => {
      calls.groups.push(request.logGroup);
      calls.polls += 1;
      return calls.polls > linesAfterPolls ? logs : [];
    },
  };
  return { backend, calls };
}

/** A clock that advances only when the runner sleeps, so the 60 s wait costs no real time. */
function fakeClock() {
  let t = 1_700_000_000_000;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

const FOUND = [{ timestamp: 1, message: 'Failed /complete-rollout: status=400 body=Could not find job' }];

describe('smoke runner', () => {
  it("sends the smoke-test payload with the caller's account to the runtime's region and polls until the evidence shows", async () => {
    const { backend, calls } = fakeBackend(async () => ({ kind: 'response', body: '{"reward": -1.5}' }), FOUND, 2);
    const result = await runSmokeTest(backend, { runtimeArn: ARN, pollIntervalMs: 1000, ...fakeClock() });
    assert.equal(result.verdict.ok, true, result.verdict.summary);
    assert.equal(calls.polls, 3);
    assert.deepEqual(calls.regions, ['us-west-2']);
    assert.equal(JSON.parse(calls.payloads[0]).metadata.jobArn, 'arn:aws:sagemaker:us-west-2:111122223333:job/AgentRFT/smoke-test');
    assert.ok(calls.sessions[0].length >= 33);
    assert.deepEqual(calls.groups[0], '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT');
  });

  it('stops watching the logs at the deadline and reports no log lines', async () => {
    const { backend, calls } = fakeBackend(async () => ({ kind: 'response', body: '{"reward": -1.5}' }), []);
    const result = await runSmokeTest(backend, { runtimeArn: ARN, logWaitMs: 60_000, pollIntervalMs: 3_000, ...fakeClock() });
    assert.equal(result.verdict.ok, false);
    assert.equal(calls.polls, 21);
    assert.ok(result.verdict.diagnoses.some((d) => /No log lines/.test(d.problem)));
  });

  it('ends the log watch early when the invocation already answered with an error', async () => {
    const failed: InvocationOutcome = { kind: 'error', statusCode: 500, message: 'The agent signaled that the trajectory failed.' };
    const explained = fakeBackend(async () => failed, [{ timestamp: 1, message: 'CompleteRollout: trajectory_id=r1 status=failed' }]);
    await runSmokeTest(explained.backend, { runtimeArn: ARN, logWaitMs: 60_000, pollIntervalMs: 3_000, ...fakeClock() });
    assert.equal(explained.calls.polls, 1, 'the failure line ends the watch at once');
    const silent = fakeBackend(async () => failed, []);
    const quiet = fakeClock();
    const start = quiet.now();
    await runSmokeTest(silent.backend, { runtimeArn: ARN, logWaitMs: 60_000, pollIntervalMs: 3_000, ...quiet });
    assert.ok(quiet.now() - start <= 10_000 + 3_000, 'at most the short window, not 60 s');
    assert.ok(silent.calls.polls < 21);
  });

  it('turns a hanging invocation into a timeout outcome at its own deadline', async () => {
    const hang = (signal: AbortSignal) =>
      new Promise<InvocationOutcome>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const { backend } = fakeBackend(hang, []);
    const result = await runSmokeTest(backend, { runtimeArn: ARN, invokeTimeoutMs: 50, logWaitMs: 0, ...fakeClock() });
    assert.ok(result.verdict.diagnoses.some((d) => /did not answer/.test(d.problem) && /outermost/.test(d.fix)));
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    const hang = (signal: AbortSignal) =>
      new Promise<InvocationOutcome>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const { backend } = fakeBackend(hang, []);
    const running = runSmokeTest(backend, { runtimeArn: ARN, signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await assert.rejects(running, SmokeCancelled);
  });

  it('reports a cancel during the STS call as cancelled, not as an error', async () => {
    const controller = new AbortController();
    const backend: SmokeBackend = {
      callerAccount: (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('Request aborted')))),
      invoke: async () => ({ kind: 'response', body: '{}' }),
      logLines: async () => [],
    };
    const running = runSmokeTest(backend, { runtimeArn: ARN, signal: controller.signal });
    controller.abort();
    await assert.rejects(running, SmokeCancelled);
  });

  it('refuses text that is not a runtime ARN with a sentence', async () => {
    const { backend } = fakeBackend(async () => ({ kind: 'response', body: '{}' }), []);
    await assert.rejects(runSmokeTest(backend, { runtimeArn: 'wordle_agent' }), /not an agent runtime ARN/);
  });
});
