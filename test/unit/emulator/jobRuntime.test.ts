import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { ceiling } from '../../host/lib/ceiling';

const JOB = 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/wordle-gptoss20b-grpo-lr-sweep';
const wordle = {
  model: 'scripted-0.9',
  messages: [{ role: 'user', content: 'Guess the 5-letter word' }],
  tools: [{ type: 'function', function: { name: 'guess_word' } }],
};
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const dataOf = (text: string) =>
  text
    .split('\n\n')
    .filter((e) => e.startsWith('data: '))
    .map((e) => e.slice(6));

describe('emulator: the Job Runtime of its jobs and a streaming scripted policy', function () {
  this.timeout(ceiling(20_000));
  let emulator: Emulator;
  // Speed 1: the seeded training job stays InProgress for the whole test.
  before(async () => (emulator = await startEmulator({ speed: 1 })));
  after(() => emulator.close());

  it('streams when asked, with a usage chunk only when stream_options.include_usage asks for one', async () => {
    const plain = dataOf(await (await post(`${emulator.url}/v1/chat/completions`, { ...wordle, stream: true })).text());
    assert.equal(plain.at(-1), '[DONE]');
    const chunks = plain
      .slice(0, -1)
      .map((d) => JSON.parse(d) as { choices: { delta: Record<string, unknown>; finish_reason: string | null }[]; usage?: unknown });
    assert.ok(chunks.every((c) => c.choices.length === 1 && c.usage === undefined));
    assert.equal(chunks.at(-1)!.choices[0].finish_reason, 'tool_calls');
    const asked = dataOf(
      await (
        await post(`${emulator.url}/v1/chat/completions`, { ...wordle, stream: true, stream_options: { include_usage: true } })
      ).text(),
    );
    const usage = JSON.parse(asked.at(-2)!) as { choices: unknown[]; usage: { prompt_tokens: number } };
    assert.deepEqual(usage.choices, []);
    assert.ok(usage.usage.prompt_tokens > 0);
  });

  it('answers a running job’s rollouts and moves each trajectory on; another job is 400 "Could not find job", an unknown trajectory 404', async () => {
    const headers = { 'x-amzn-sagemaker-job-arn': JOB, 'x-amzn-sagemaker-trajectory-id': 'traj-1' };
    assert.equal((await post(`${emulator.url}/sample`, wordle, headers)).status, 200);
    assert.equal((await post(`${emulator.url}/v1/chat/completions`, wordle, headers)).status, 200);
    const report = (path: string, body: object) =>
      post(`${emulator.url}${path}`, { TrajectoryId: 'traj-1', ...body }, { 'x-amzn-sagemaker-job-arn': JOB });
    assert.equal(
      (await report('/update-reward', { Rewards: [1] })).headers.get('x-amzn-errortype'),
      'ConflictException',
      'a reward before CompleteRollout',
    );
    assert.equal((await report('/complete-rollout', { Status: 'ready' })).status, 200);
    assert.equal((await report('/update-reward', { Rewards: [1] })).status, 200);
    const sealed = await post(`${emulator.url}/sample`, wordle, headers);
    // No turns after the trajectory is complete, with an error Sample can raise in the service model.
    assert.deepEqual([sealed.status, sealed.headers.get('x-amzn-errortype')], [400, 'ValidationException']);
    const other = await post(`${emulator.url}/sample`, wordle, { ...headers, 'x-amzn-sagemaker-job-arn': JOB.replace('lr-sweep', 'nope') });
    assert.equal(other.status, 400);
    assert.equal(((await other.json()) as { message: string }).message, `Could not find job ${JOB.replace('lr-sweep', 'nope')}`);
    const unknown = await post(`${emulator.url}/complete-rollout`, { TrajectoryId: 'never', JobArn: JOB });
    assert.deepEqual([unknown.status, unknown.headers.get('x-amzn-errortype')], [404, 'ResourceNotFoundException']);
    assert.equal(emulator.requests.get('sagemakerjobruntime:Sample'), 3);
  });

  it('ClientToken: the same token again is the same call (200, no second effect); a new token for a done step is a Conflict; JobArn in the header or the body', async () => {
    const headers = { 'x-amzn-sagemaker-job-arn': JOB, 'x-amzn-sagemaker-trajectory-id': 'traj-token' };
    assert.equal((await post(`${emulator.url}/sample`, wordle, headers)).status, 200);
    const errorType = (r: Response) => [r.status, r.headers.get('x-amzn-errortype')];
    // The service model's form: JobArn in the header.
    const complete = (token: string, status = 'ready') =>
      post(
        `${emulator.url}/complete-rollout`,
        { TrajectoryId: 'traj-token', Status: status, ClientToken: token },
        { 'x-amzn-sagemaker-job-arn': JOB },
      );
    // The SDK's form: JobArn in the body.
    const reward = (token: string, rewards: number[]) =>
      post(`${emulator.url}/update-reward`, { JobArn: JOB, TrajectoryId: 'traj-token', Rewards: rewards, ClientToken: token });
    assert.equal((await complete('c-1')).status, 200);
    assert.equal((await complete('c-1')).status, 200, 'a retry with the same token');
    assert.deepEqual(errorType(await complete('c-2')), [409, 'ConflictException'], 'a second CompleteRollout with a new token');
    assert.deepEqual(errorType(await complete('c-1', 'failed')), [409, 'ConflictException'], 'the token reused for another request');
    // Without a token (the SDK's feedback client sends none) a repeated CompleteRollout is taken for a retry, as before.
    const untokened = await post(`${emulator.url}/complete-rollout`, { JobArn: JOB, TrajectoryId: 'traj-token', Status: 'ready' });
    assert.equal(untokened.status, 200);
    assert.equal((await reward('r-1', [0.5])).status, 200);
    assert.equal((await reward('r-1', [0.5])).status, 200, 'a retried UpdateReward is not a second reward');
    assert.deepEqual(errorType(await reward('r-2', [0.5])), [409, 'ConflictException'], 'a second UpdateReward');
  });
});
