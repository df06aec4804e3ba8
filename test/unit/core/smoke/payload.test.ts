import { strict as assert } from 'node:assert';
import { parseRuntimeArn, runtimeLogGroup, smokePayload, smokeSessionId } from '../../../../src/core/smoke';

describe('smoke payload', () => {
  it('reads region, account and id from a runtime ARN', () => {
    assert.deepEqual(parseRuntimeArn('arn:aws:bedrock-agentcore:us-west-2:444455556666:runtime/wordle_agent-AbCdEf1234'), {
      partition: 'aws',
      region: 'us-west-2',
      account: '444455556666',
      runtimeId: 'wordle_agent-AbCdEf1234',
    });
    assert.equal(parseRuntimeArn('arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/x'), undefined);
    assert.equal(parseRuntimeArn('wordle_agent-AbCdEf1234'), undefined);
  });

  it("puts the caller's account and the runtime's region in the fake job ARN", () => {
    const payload = smokePayload('999988887777', 'us-west-2');
    assert.equal(payload.metadata.jobArn, 'arn:aws:sagemaker:us-west-2:999988887777:job/AgentRFT/smoke-test');
    assert.equal(payload.metadata.rolloutId, 'r1');
    // The prompt column is a JSON string, as the service passes it unparsed.
    assert.equal(typeof payload.prompt, 'string');
    assert.deepEqual(JSON.parse(payload.prompt), { prompt: 'Guess the 5-letter word', answer: 'beach', id: 'smoke-test' });
  });

  it('makes session ids AgentCore accepts (33–256 characters), different per call', () => {
    const a = smokeSessionId();
    const b = smokeSessionId();
    assert.ok(a.length >= 33 && a.length <= 256, a);
    assert.match(a, /^[a-z0-9-]+$/);
    assert.notEqual(a, b);
  });

  it('names the DEFAULT endpoint log group', () => {
    assert.equal(runtimeLogGroup('wordle_agent-AbCdEf1234'), '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT');
  });
});

describe('smoke payload, both forms', () => {
  it("sends the SDK's contract (instance, metadata, inferenceParams, modelName, modelEndpoint) and a top-level prompt", () => {
    const payload = smokePayload('999988887777', 'us-west-2');
    assert.equal(payload.instance.prompt, payload.prompt);
    assert.deepEqual(
      { ...payload.metadata, jobArn: undefined, rolloutId: undefined },
      {
        job_arn: 'arn:aws:sagemaker:us-west-2:999988887777:job/AgentRFT/smoke-test',
        trajectory_id: 'r1',
        endpoint: 'https://job-runtime.sagemaker.us-west-2.api.aws',
        region: 'us-west-2',
        jobArn: undefined,
        rolloutId: undefined,
      },
    );
    assert.deepEqual(Object.keys(payload.inferenceParams).sort(), ['max_tokens', 'temperature', 'top_p']);
    assert.equal(payload.modelEndpoint, 'https://job-runtime.sagemaker.us-west-2.api.aws/v1');
    assert.equal(typeof payload.modelName, 'string');
  });
});
