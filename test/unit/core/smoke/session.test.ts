import { strict as assert } from 'node:assert';
import { linesOfSession, smokeFilterPattern } from '../../../../src/core/smoke';

describe('smoke log lines of one invocation', () => {
  const session = { sessionId: 'mtrl-smoke-20261129191500-abcdefghijklmnopqrst', rolloutId: 'r1' };
  const at = (message: string, timestamp = 1) => ({ timestamp, message });

  it("keeps this rollout's lines and drops other trajectories and other sessions sharing the stream", () => {
    const kept = linesOfSession(
      [
        at(
          'Failed /complete-rollout: status=400 body={"message":"Could not find job arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/smoke-test"}',
        ),
        at('CompleteRollout: trajectory_id=r1 status=ready'),
        at('CompleteRollout: trajectory_id=292b1866-39-358 status=failed'),
        at('UpdateReward: trajectory_id=292b1866-39-358 rewards=[-0.65]'),
        at(
          `{"timestamp":"x","level":"INFO","message":"Invocation started","logger":"bedrock_agentcore","sessionId":"${session.sessionId}"}`,
        ),
        at(
          '{"timestamp":"x","level":"INFO","message":"Invocation started","logger":"bedrock_agentcore","sessionId":"someone-else-0000000000000000000000"}',
        ),
      ],
      session,
    ).map((l) => l.message);
    assert.equal(kept.length, 3);
    assert.ok(kept.every((m) => !m.includes('292b1866') && !m.includes('someone-else')));
  });

  it('finds lines by job ARN or session id with a CloudWatch OR pattern', () => {
    assert.equal(
      smokeFilterPattern('arn:aws:sagemaker:us-east-1:1:job/AgentRFT/smoke-test', 's'),
      '?"arn:aws:sagemaker:us-east-1:1:job/AgentRFT/smoke-test" ?"s"',
    );
  });
});
