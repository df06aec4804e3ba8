import { strict as assert } from 'node:assert';
import { smokeReportMarkdown, smokeReportText, smokeVerdict, type SmokeResult } from '../../../../src/core/smoke';

function result(body: string, lines: string[]): SmokeResult {
  const runtimeArn = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234';
  const logGroup = '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT';
  const verdict = smokeVerdict({
    runtimeArn,
    logGroup,
    callerAccount: '111122223333',
    logWaitSeconds: 60,
    invocation: { kind: 'response', body },
    logLines: lines.map((message, i) => ({ timestamp: i, message })),
  });
  return {
    runtimeArn,
    region: 'us-east-1',
    callerAccount: '111122223333',
    jobArn: 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/smoke-test',
    sessionId: 'mtrl-smoke-x'.padEnd(40, 'x'),
    logGroup,
    startedAt: '2026-11-29T19:00:00.000Z',
    durationMs: 1500,
    response: body,
    verdict,
  };
}

describe('smoke report', () => {
  it('lists each check with its state in words, quotes log lines in a fence, and names the request', () => {
    const md = smokeReportMarkdown(
      result('{"reward": -1.5}', ['Failed /complete-rollout: status=400 body={"message":"Could not find job"}']),
    );
    assert.match(md, /^# Smoke test: passed/);
    assert.match(md, /- \*\*Invoked \(transport, IAM\)\*\*: ✓ passed\./);
    assert.match(md, /```text\nFailed \/complete-rollout: status=400/);
    assert.match(md, /\| Fake job ARN \| `arn:aws:sagemaker:us-east-1:111122223333:job\/AgentRFT\/smoke-test` \|/);
  });

  it('puts each diagnosis under its own heading with the fix, and a fence longer than any backticks in the quoted lines', () => {
    const md = smokeReportMarkdown(result('{"status": "error"}', ['Rollout error: ```boom```']));
    assert.match(md, /^# Smoke test: failed/);
    assert.match(md, /\n## The agent returned status "error" instead of a reward\.\n\n\*\*Fix:\*\*/);
    assert.match(md, /\*\*Returned a reward \(any number passes; an error status or no reward fails\)\*\*: ✗ failed\./);
    assert.match(md, /````text\nRollout error: ```boom```\n````/);
  });

  it('prints a plain-text report for the command line', () => {
    const wordle = [
      'agent loop ended early (400 - Could not find job); 0 guess(es) played',
      'Failed /complete-rollout: status=400 body=Could not find job',
    ];
    const text = smokeReportText(result('{"reward": 0.3}', wordle));
    assert.match(text, /^Smoke test passed: invoked, reached the Job Runtime, reward 0\.3 \(warning: The reward was 0\.3, not -1\.5\.\)/);
    assert.match(text, /\[warn\] Wordle: reward -1\.5 for a game never played/);
    assert.match(text, /\n {2}\| Failed \/complete-rollout/);
  });
});
