import { strict as assert } from 'node:assert';
import { CheckAllowance, KEPT_ROLLOUT_BYTES } from '../../../../src/core/signal/checkAllowance';
import { RolloutRecording } from '../../../../src/core/signal/rolloutRecording';
import { startJobRuntime, type JobRuntime } from '../../../../src/services/signal/jobRuntime';
import { startKeyPolicy, type KeyPolicy } from '../../hostile/keyPolicy';
import { ceiling } from '../../../host/lib/ceiling';

const JOB = 'arn:aws:sagemaker:us-east-1:000000000000:job/AgentRFT/local';
const recordingOf = (id: string, allowance?: CheckAllowance) =>
  new RolloutRecording({ id, groupKey: 'g', row: {}, rowIndex: 0, prompt: 'p', jobArn: JOB }, allowance);
/** Raw JSON text: `1e999` and duplicate keys reach the runtime as an agent wrote them. */
// Bytes, not a string: fetch would label a string text/plain, which the runtime refuses as a web page's.
const postText = (url: string, text: string) => fetch(url, { method: 'POST', body: new TextEncoder().encode(text) });
const answerOf = async (r: Response) => ({
  status: r.status,
  code: r.headers.get('x-amzn-errortype'),
  message: ((await r.json()) as { message?: string }).message,
});

describe('local job runtime: CompleteRollout and UpdateReward checked where they enter, made once', function () {
  this.timeout(ceiling(10_000));
  let policy: KeyPolicy;
  let runtime: JobRuntime;
  beforeEach(async () => {
    policy = await startKeyPolicy();
    runtime = await startJobRuntime({ baseUrl: policy.baseUrl });
  });
  afterEach(async () => {
    await runtime.close();
    await policy.close();
  });

  it('a second report is a ConflictException; a retry with the same ClientToken is the same call, answered 200 and changing nothing', async () => {
    const recording = recordingOf('t1');
    runtime.add(recording);
    const url = runtime.endpointOf('t1');
    assert.equal((await postText(`${url}/update-reward`, '{"Rewards":[0.5],"ClientToken":"tok-1"}')).status, 200);
    assert.equal((await postText(`${url}/update-reward`, '{"Rewards":[0.5],"ClientToken":"tok-1"}')).status, 200, 'a retry');
    const second = await answerOf(await postText(`${url}/update-reward`, '{"Rewards":[0.9]}'));
    assert.deepEqual([second.status, second.code], [409, 'ConflictException']);
    assert.match(second.message!, /UpdateReward was already called for trajectory t1/);
    assert.equal((await postText(`${url}/complete-rollout`, '{"Status":"ready"}')).status, 200);
    assert.equal((await postText(`${url}/complete-rollout`, '{"Status":"failed"}')).status, 409);
    assert.deepEqual([recording.transcript().status, recording.transcript().reward], ['completed', 0.5], 'the first report stands');
  });

  it('refuses bodies of the wrong shape and rewards that break the rule, naming the rule; the rollout keeps why', async () => {
    const cases: [string, RegExp][] = [
      ['[1,2,3]', /must be a JSON object, got \[1,2,3\]/],
      ['null', /must be a JSON object, got null/],
      ['{"TrajectoryId": 5, "Rewards": [1]}', /TrajectoryId must be a string, got 5/],
      ['{"Rewards": "1"}', /Rewards must be a list of numbers, got "1"/],
      ['{"Rewards": []}', /at least one number.*empty/],
      ['{"Rewards": [1e999]}', /Rewards\[0\] is Infinity, which breaks the reward rule: a reward must be a finite number/],
      ['{"Rewards": [1e308]}', /Rewards\[0\] is 1e\+308, which breaks the reward rule/],
      ['{"Rewards": ["Infinity"]}', /Rewards\[0\] is "Infinity"/],
      ['{"Rewards": ["NaN"]}', /Rewards\[0\] is "NaN"/],
      [`{"Rewards": [${Array(2_000_000).fill(0).join(',')}]}`, /Rewards holds 2000000 numbers; UpdateReward takes at most 10000/],
    ];
    for (const [i, [text, sentence]] of cases.entries()) {
      const recording = recordingOf(`r${i}`);
      runtime.add(recording);
      const answer = await answerOf(await postText(`${runtime.endpointOf(`r${i}`)}/update-reward`, text));
      assert.deepEqual([answer.status, answer.code], [400, 'ValidationException'], text.slice(0, 40));
      assert.match(answer.message!, sentence);
      if (i >= 3) assert.match(recording.transcript().error ?? '', sentence, 'the report names why the reward is missing');
    }
    const chat = await answerOf(await postText(`${runtime.endpointOf('r0')}/v1/chat/completions`, '[1,2,3]'));
    assert.deepEqual([chat.status, chat.message], [400, 'A chat completion request must be a JSON object (model, messages).']);
  });
});

describe('what is kept of a rollout', () => {
  const turn = (content: string) => ({ choices: [{ message: { role: 'assistant', content } }] });

  it('is cut past its cap with a note, never silently', () => {
    const recording = recordingOf('big');
    const half = 'x'.repeat(KEPT_ROLLOUT_BYTES / 2 + 1);
    recording.modelCall({ messages: [] }, turn(half));
    recording.modelCall({ messages: [] }, turn(half));
    recording.modelCall({ messages: [] }, turn('small'));
    const turns = recording.transcript().turns;
    assert.equal(turns.length, 2);
    assert.equal(turns[0].text, half);
    assert.equal(turns[1].text, '[The rest of this rollout was not kept: what is kept of one rollout stops at 16 MB.]');
  });

  it('draws on the check’s allowance: past it the rollout is stopped with the sentence', () => {
    const allowance = new CheckAllowance(1024);
    const recording = recordingOf('a', allowance);
    recording.modelCall({ messages: [] }, turn('y'.repeat(1000)));
    recording.modelCall({ messages: [] }, turn('y'.repeat(1000)));
    assert.match(recording.stopped ?? '', /^What is kept of this rollout \(0 MB so far\) would pass the local check's allowance of 0 MB/);
    assert.equal(recording.transcript().status, 'error');
    assert.equal(allowance.held, 1000);
  });
});
