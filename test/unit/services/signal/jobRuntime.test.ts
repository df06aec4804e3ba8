import { strict as assert } from 'node:assert';
import { RolloutRecording } from '../../../../src/core/signal/rolloutRecording';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { startJobRuntime } from '../../../../src/services/signal/jobRuntime';

const task = { id: 'traj-1', groupKey: 'row-0', row: {}, rowIndex: 0, prompt: 'p', jobArn: 'arn:job' };
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('job runtime', function () {
  this.timeout(20_000);
  let emulator: Emulator;
  before(async () => (emulator = await startEmulator({ history: false })));
  after(() => emulator.close());

  it('forwards a rollout’s chat completions to the policy with its model, and takes the SDK’s calls under the rollout’s endpoint', async () => {
    const runtime = await startJobRuntime({ baseUrl: `${emulator.url}/v1`, model: 'scripted-0.9' });
    try {
      const recording = new RolloutRecording(task);
      runtime.add(recording);
      const endpoint = runtime.endpointOf('traj-1');
      assert.equal(endpoint, `${runtime.url}/rollouts/traj-1/v1`);
      const tools = [{ type: 'function', function: { name: 'guess_word' } }];
      const answer = await post(`${endpoint}/chat/completions`, {
        model: 'policy',
        messages: [{ role: 'user', content: 'Guess the 5-letter word' }],
        tools,
      });
      assert.equal(answer.status, 200);
      const body = (await answer.json()) as { model: string; choices: { message: { tool_calls: unknown[] } }[] };
      assert.equal(body.model, 'scripted-0.9');
      assert.equal(body.choices[0].message.tool_calls.length, 1);
      const bearer = { authorization: 'Bearer token' };
      assert.equal(
        (await post(`${endpoint}/complete-rollout`, { JobArn: 'arn:job', TrajectoryId: 'traj-1', Status: 'ready' }, bearer)).status,
        200,
      );
      assert.equal(
        (await post(`${runtime.url}/update-reward`, { JobArn: 'arn:job', TrajectoryId: 'traj-1', Rewards: [0.5] }, bearer)).status,
        200,
      );
      const t = recording.transcript();
      assert.equal(recording.modelCalls, 1);
      assert.equal(t.turns[0].toolCalls[0].name, 'guess_word');
      assert.deepEqual([t.status, t.reward], ['completed', 0.5]);
      assert.ok(recording.tokens.prefill > 0 && recording.tokens.sample > 0);
    } finally {
      await runtime.close();
    }
  });

  it('a call at no rollout’s endpoint is refused with the fix and counted; an unreachable policy is a sentence naming its URL', async () => {
    const runtime = await startJobRuntime({ baseUrl: 'http://127.0.0.1:9/v1' });
    try {
      const stray = await post(`${runtime.url}/v1/chat/completions`, { messages: [] });
      assert.equal(stray.status, 404);
      assert.match(((await stray.json()) as { error: { message: string } }).error.message, /metadata\.endpoint/);
      assert.equal(runtime.unattributed, 1);
      const recording = new RolloutRecording(task);
      runtime.add(recording);
      const down = await post(`${runtime.endpointOf('traj-1')}/chat/completions`, { messages: [{ role: 'user', content: 'x' }] });
      assert.equal(down.status, 502);
      assert.match(
        ((await down.json()) as { error: { message: string } }).error.message,
        /The policy at http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions did not answer/,
      );
      assert.equal(recording.transcript().status, 'error');
    } finally {
      await runtime.close();
    }
  });

  it('base URL calls: the rollout X-RFT-Metadata names, else the one in flight; with several in flight and no header, refused', async () => {
    const runtime = await startJobRuntime({ baseUrl: `${emulator.url}/v1`, model: 'scripted-0.9' });
    try {
      const [a, b] = ['traj-a', 'traj-b'].map((id) => new RolloutRecording({ ...task, id }));
      runtime.add(a);
      runtime.add(b);
      const call = {
        messages: [{ role: 'user', content: 'Guess the 5-letter word' }],
        tools: [{ type: 'function', function: { name: 'guess_word' } }],
      };
      const chat = `${runtime.baseUrl}/chat/completions`;
      assert.equal(runtime.baseUrl, `${runtime.url}/v1`);
      assert.equal((await post(chat, call, { 'x-rft-metadata': JSON.stringify({ job_id: 'j', rollout_id: 'traj-b' }) })).status, 200);
      assert.equal((await post(chat, call, { 'X-RFT-Metadata': 'job_id=j;rollout_id=traj-a' })).status, 200);
      assert.deepEqual([a.modelCalls, b.modelCalls], [1, 1]);
      const refused = await post(chat, call);
      assert.equal(refused.status, 409);
      assert.match(((await refused.json()) as { error: { message: string } }).error.message, /2 rollouts are in flight.*--concurrency 1/);
      assert.equal(runtime.ambiguous, 1);
      runtime.ended('traj-a');
      assert.equal((await post(chat, call)).status, 200, 'the one rollout left in flight takes the call');
      assert.deepEqual([a.modelCalls, b.modelCalls], [1, 2]);
      runtime.ended('traj-b');
      assert.equal((await post(chat, call)).status, 404, 'no rollout in flight: refused as before');
    } finally {
      await runtime.close();
    }
  });
});
