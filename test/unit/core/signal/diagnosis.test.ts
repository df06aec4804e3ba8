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

  it('the policy refused: the scripted emulator says it plays only Wordle and the refund desk and suggests --policy URL', () => {
    const refusal =
      "The emulator's scripted policy plays Wordle (tool guess_word) and the refund desk (tools …), and this conversation is neither.";
    const rollout = { answeredCalls: 0, refusals: [refusal], failure: { message: 'HTTPError: HTTP Error 400: Bad Request', line: 20 } };
    const [d, ...rest] = diagnoseLocalRun(facts([rollout, rollout], { scriptedPolicy: true }));
    assert.deepEqual(rest, [], 'the agent raising after the refusal is not a second cause');
    assert.equal(d.kind, 'policy-refused');
    assert.match(d.sentence, /^All 2 rollouts: the policy refused their model calls/);
    assert.match(d.sentence, /plays only Wordle and the refund desk.*pass --policy URL/);
    const [other] = diagnoseLocalRun(facts([rollout], { scriptedPolicy: false }));
    assert.match(other.sentence, /Check --policy and --model/);
  });

  it('several kinds: the most common first', () => {
    const raised = { answeredCalls: 0, refusals: [], failure: { message: 'RuntimeError: boom', line: 3 } };
    const silent = { answeredCalls: 0, refusals: [] };
    const kinds = diagnoseLocalRun(facts([silent, raised, raised, played])).map((d) => [d.kind, d.rollouts]);
    assert.deepEqual(kinds, [
      ['agent-raised', 2],
      ['no-call', 1],
    ]);
  });
});
