import { strict as assert } from 'node:assert';
import { diagnoseLocalRun, type LocalRunFacts, type PlayedRollout } from '../../../../src/core/signal/diagnosis';

const facts = (rollouts: PlayedRollout[], more: Partial<LocalRunFacts> = {}): LocalRunFacts => ({
  agent: 'app.py',
  agentSource: 'def handle(payload):\n    return {"reward": 0}\n',
  python: 'python3',
  rollouts,
  stubbed: [],
  unservedPaths: [],
  scriptedPolicy: false,
  runtimeUrl: 'http://127.0.0.1:4567',
  ...more,
});

const played: PlayedRollout = { answeredCalls: 3, refusals: [] };

describe('local check diagnosis: the real cause, one sentence per kind of trouble', () => {
  it('says nothing when every rollout played', () => {
    assert.deepEqual(diagnoseLocalRun(facts([played, played])), []);
  });

  it('the agent raised: its line and message; an allow-list error says how to allow the local URL; missing packages named on the same line', () => {
    const failure = { message: 'ValueError: Refusing an untrusted SageMaker Job Runtime endpoint.', line: 27 };
    const [d, ...rest] = diagnoseLocalRun(
      facts(
        Array.from({ length: 4 }, () => ({ answeredCalls: 0, refusals: [], failure })),
        { stubbed: ['bedrock_agentcore', 'sagemaker', 'strands'] },
      ),
    );
    assert.deepEqual(rest, []);
    assert.equal(d.kind, 'agent-raised');
    assert.match(
      d.sentence,
      /^All 4 rollouts failed: the agent raised app\.py:27: ValueError: Refusing an untrusted SageMaker Job Runtime endpoint\./,
    );
    assert.match(
      d.sentence,
      /the agent's own check refusing the local runtime's URL \(http:\/\/127\.0\.0\.1:4567\): .*accept http:\/\/127\.0\.0\.1/,
    );
    assert.match(d.sentence, /bedrock_agentcore, sagemaker, strands are not installed for python3 .*--python/);
    assert.doesNotMatch(d.sentence, /ignores the payload's endpoint/);
  });

  it('a rollout the check stopped leads with the allowance sentence, not the refusals or errors its stop caused', () => {
    const stopped =
      "The agent's request (675840 bytes so far) would pass the local check's allowance of 128 MB (everything the check holds at once, all rollouts together), so this rollout was stopped; the others go on.";
    const echo = { message: 'error: 30 of 30 requests refused (402)' };
    const [d, ...rest] = diagnoseLocalRun(
      facts([
        { answeredCalls: 0, refusals: ['The policy answered 500.'], failure: echo, stopped },
        { answeredCalls: 0, refusals: [], stopped: stopped.replace('675840', '12') },
        played,
      ]),
    );
    assert.deepEqual(rest, []);
    assert.equal(d.kind, 'stopped');
    assert.equal(d.rollouts, 2);
    assert.match(
      d.sentence,
      /^1 of 3 rollouts: the agent's request \(675840 bytes so far\) would pass the local check's allowance of 128 MB .*the others go on\. 1 more was stopped/,
    );
    assert.match(d.sentence, /docs\/limits\.md/);
    assert.doesNotMatch(d.sentence, /refused|raised/);
  });

  it('a plain exception gets no allow-list advice, and other errors are counted', () => {
    const [d] = diagnoseLocalRun(
      facts([
        { answeredCalls: 0, refusals: [], failure: { message: "KeyError: 'ticket_id'", line: 9 } },
        { answeredCalls: 0, refusals: [], failure: { message: "KeyError: 'ticket_id'", line: 9 } },
        { answeredCalls: 2, refusals: [], failure: { message: 'ZeroDivisionError: division by zero', line: 12 } },
        played,
      ]),
    );
    assert.equal(d.kind, 'agent-raised');
    assert.match(d.sentence, /^2 of 4 rollouts failed: the agent raised app\.py:9: KeyError: 'ticket_id'\. 1 more raised other errors/);
    assert.doesNotMatch(d.sentence, /allow|--python/);
  });

  it('calls at a path the runtime does not serve: the path, its count, what the runtime serves', () => {
    const [d] = diagnoseLocalRun(
      facts([{ answeredCalls: 0, refusals: [], failure: { message: 'NotFoundError: 404', line: 5 } }], {
        unservedPaths: [{ path: '/rollouts/t1/v1/v1/chat/completions', count: 3 }],
      }),
    );
    assert.equal(d.kind, 'unserved-path');
    assert.match(d.sentence, /calls arrived at \/rollouts\/t1\/v1\/v1\/chat\/completions \(3 calls\)/);
    assert.match(d.sentence, /serves chat completions at the payload's metadata\.endpoint \+ \/v1\/chat\/completions/);
    assert.match(d.sentence, /adds \/v1 to a URL that already ends in \/v1/);
  });

  it('no call arrived: the hard-coded host line, with what the agent raised when it could not connect', () => {
    const source = 'import os\nENDPOINT = os.environ.get("RFT_RUNTIME_ENDPOINT", "https://job-runtime.sagemaker.us-east-1.api.aws/v1")\n';
    const [d] = diagnoseLocalRun(
      facts(
        [
          {
            answeredCalls: 0,
            refusals: [],
            failure: { message: 'URLError: <urlopen error [Errno -2] Name or service not known>', line: 30 },
          },
        ],
        {
          agentSource: source,
        },
      ),
    );
    assert.equal(d.kind, 'no-call');
    assert.match(d.sentence, /^No model call arrived from the agent: it ignores the payload's endpoint\./);
    assert.match(d.sentence, /The agent raised app\.py:30: URLError/);
    assert.match(d.sentence, /app\.py:2 fixes the host/);
    assert.match(d.sentence, /--endpoint-env RFT_RUNTIME_ENDPOINT/);
  });

  it('no call arrived though --endpoint-env named the runtime: the stubbed packages, not the --endpoint-env already given', () => {
    const source = 'import os\nENDPOINT = os.environ.get("RFT_RUNTIME_ENDPOINT", "https://job-runtime.sagemaker.us-east-1.api.aws/v1")\n';
    const rollouts = [{ answeredCalls: 0, refusals: [] }];
    const [stubbed] = diagnoseLocalRun(facts(rollouts, { agentSource: source, endpointEnv: 'RFT_RUNTIME_ENDPOINT', stubbed: ['strands'] }));
    assert.equal(stubbed.kind, 'no-call');
    assert.match(
      stubbed.sentence,
      /^No model call arrived from the agent, though RFT_RUNTIME_ENDPOINT named the local runtime: strands is not installed for python3/,
    );
    assert.match(stubbed.sentence, /--python/);
    assert.doesNotMatch(stubbed.sentence, /--endpoint-env/);
    const [other] = diagnoseLocalRun(facts(rollouts, { agentSource: source, endpointEnv: 'MODEL_URL' }));
    assert.match(other.sentence, /though MODEL_URL named the local runtime: it calls another host \(app\.py:2: ENDPOINT = /);
  });

  it('failed inside a stubbed package: the packages and the --python advice', () => {
    const [d] = diagnoseLocalRun(
      facts(
        [
          {
            answeredCalls: 0,
            refusals: [],
            failure: { message: "TypeError: float() argument must be a string or a real number, not 'Stub'", line: 16, inStub: true },
          },
        ],
        {
          stubbed: ['bedrock_agentcore', 'strands'],
        },
      ),
    );
    assert.equal(d.kind, 'inside-stub');
    assert.match(
      d.sentence,
      /^The rollout failed inside packages that are not installed for python3 and were replaced by stubs \(bedrock_agentcore, strands\): app\.py:16: TypeError/,
    );
    assert.match(d.sentence, /Pass --python with the python of a virtual environment that has the agent's requirements/);
  });

  it("the policy refused: the scripted emulator does not play this agent's task, with --policy URL as the fix", () => {
    const refusal =
      "The emulator's scripted policy does not play this conversation: it plays Wordle (tool guess_word, …) and the refund desk (…).";
    const rollout = { answeredCalls: 0, refusals: [refusal], failure: { message: 'HTTPError: HTTP Error 400: Bad Request', line: 20 } };
    const [d, ...rest] = diagnoseLocalRun(facts([rollout, rollout], { scriptedPolicy: true }));
    assert.deepEqual(rest, [], 'the agent raising after the refusal is not a second cause');
    assert.equal(d.kind, 'policy-refused');
    assert.match(d.sentence, /^All 2 rollouts: the policy does not play this agent's task\./);
    assert.match(d.sentence, /plays only its own Wordle and refund-desk tasks.*pass --policy URL/);
    const [viaUrl] = diagnoseLocalRun(facts([rollout], { scriptedPolicy: false }));
    assert.match(
      viaUrl.sentence,
      /^The rollout: the policy does not play this agent's task/,
      'the emulator named by its URL refuses in the same words',
    );
    const other = { ...rollout, refusals: ['The model `gpt-x` does not exist'] };
    assert.match(
      diagnoseLocalRun(facts([other]))[0].sentence,
      /refused their model calls \("The model `gpt-x` does not exist"\)\. Check --policy and --model/,
    );
  });

  it('several kinds: one order, the first that applies leads whatever its count (refused, stub, reported, raised, path, no call)', () => {
    const raised = { answeredCalls: 0, refusals: [], failure: { message: 'RuntimeError: boom', line: 3 } };
    const silent = { answeredCalls: 0, refusals: [] };
    const reported = { answeredCalls: 0, refusals: [], reported: 'error: Unable to locate credentials' };
    const kinds = diagnoseLocalRun(facts([silent, silent, silent, raised, raised, reported, played])).map((d) => [d.kind, d.rollouts]);
    assert.deepEqual(kinds, [
      ['agent-reported', 1],
      ['agent-raised', 2],
      ['no-call', 3],
    ]);
    const refused = { answeredCalls: 0, refusals: ['The scripted policy does not play this conversation.'] };
    const stub = { answeredCalls: 0, refusals: [], failure: { message: "AttributeError: '<stub langgraph>'", inStub: true } };
    const first = diagnoseLocalRun(
      facts([reported, reported, stub, refused], { unservedPaths: [{ path: '/v1/v1/chat/completions', count: 2 }] }),
    );
    assert.deepEqual(
      first.map((d) => d.kind),
      ['policy-refused', 'inside-stub', 'agent-reported'],
    );
    const astray = diagnoseLocalRun(facts([raised, silent], { unservedPaths: [{ path: '/v1/v1/chat/completions', count: 2 }] }));
    assert.deepEqual(
      astray.map((d) => d.kind),
      ['agent-raised', 'unserved-path'],
    );
  });

  it("the agent's own words first: a caught missing-credentials error is quoted with the any-key advice, not blamed on the endpoint", () => {
    const rollout: PlayedRollout = {
      answeredCalls: 0,
      refusals: [],
      reported: 'error: Unable to locate credentials',
      stderr: ['botocore.exceptions.NoCredentialsError: Unable to locate credentials', 'rollout failed, returning 0'],
    };
    const [d, ...rest] = diagnoseLocalRun(facts([rollout, rollout, rollout, rollout]));
    assert.deepEqual(rest, []);
    assert.equal(d.kind, 'agent-reported');
    assert.match(d.sentence, /^All 4 rollouts: the agent reported `error: Unable to locate credentials`\. A SigV4 bearer token/);
    assert.match(d.sentence, /any key works locally.*adds no AWS credentials of its own/);
    assert.match(
      d.sentence,
      /Its stderr ended: `botocore\.exceptions\.NoCredentialsError: Unable to locate credentials` · `rollout failed, returning 0`\./,
    );
    assert.doesNotMatch(d.sentence, /endpoint/);
  });
});
