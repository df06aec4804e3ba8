import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RolloutRecording } from '../../../../src/core/signal/rolloutRecording';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { startJobRuntime } from '../../../../src/services/signal/jobRuntime';
import { ceiling } from '../../../host/lib/ceiling';

const JOB = 'arn:aws:sagemaker:us-east-1:000000000000:job/AgentRFT/local';
const task = { id: 'traj-1', groupKey: 'row-0', row: {}, rowIndex: 0, prompt: 'p', jobArn: JOB };
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const wordle = {
  model: 'policy',
  messages: [{ role: 'user', content: 'Guess the 5-letter word' }],
  tools: [{ type: 'function', function: { name: 'guess_word' } }],
};
const messageOf = async (r: Response) => ((await r.json()) as { message: string; error: { message: string } }).error.message;

/** The `data:` payloads of a server-sent event stream. */
function chunksOf(text: string): (Record<string, unknown> | '[DONE]')[] {
  return text
    .split('\n\n')
    .filter((e) => e.startsWith('data: '))
    .map((e) => (e.slice(6) === '[DONE]' ? '[DONE]' : (JSON.parse(e.slice(6)) as Record<string, unknown>)));
}

describe('job runtime', function () {
  this.timeout(ceiling(20_000));
  let emulator: Emulator;
  before(async () => (emulator = await startEmulator({ history: false })));
  after(() => emulator.close());

  it('serves chat completions under the rollout’s endpoint + /v1 with the policy’s model, and the SDK’s calls at the endpoint', async () => {
    const runtime = await startJobRuntime({ baseUrl: `${emulator.url}/v1`, model: 'scripted-0.9' });
    try {
      const recording = new RolloutRecording(task);
      runtime.add(recording);
      const endpoint = runtime.endpointOf('traj-1');
      assert.equal(endpoint, `${runtime.url}/rollouts/traj-1`, 'metadata.endpoint is the base URL without /v1, as the service sends it');
      const answer = await post(`${endpoint}/v1/chat/completions`, wordle);
      assert.equal(answer.status, 200);
      const body = (await answer.json()) as { model: string; choices: { message: { tool_calls: unknown[] } }[] };
      assert.equal(body.model, 'scripted-0.9');
      assert.equal(body.choices[0].message.tool_calls.length, 1);
      const sdk = { authorization: 'Bearer token' };
      assert.equal((await post(`${endpoint}/complete-rollout`, { JobArn: JOB, TrajectoryId: 'traj-1', Status: 'ready' }, sdk)).status, 200);
      assert.equal(
        (await post(`${runtime.url}/update-reward`, { TrajectoryId: 'traj-1', Rewards: [0.5] }, { 'x-amzn-sagemaker-job-arn': JOB }))
          .status,
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

  it('passes a stream through as server-sent events and counts its tokens; asks for usage itself and drops that chunk when the agent did not', async () => {
    const runtime = await startJobRuntime({ baseUrl: `${emulator.url}/v1`, model: 'scripted-0.9' });
    try {
      const recording = new RolloutRecording(task);
      runtime.add(recording);
      const chat = `${runtime.endpointOf('traj-1')}/v1/chat/completions`;
      const asked = await post(chat, { ...wordle, stream: true, stream_options: { include_usage: true } });
      assert.match(asked.headers.get('content-type') ?? '', /^text\/event-stream/);
      const chunks = chunksOf(await asked.text());
      assert.equal(chunks.at(-1), '[DONE]');
      const usage = (chunks.at(-2) as { choices: unknown[]; usage: { prompt_tokens: number; completion_tokens: number } }).usage;
      assert.deepEqual(recording.tokens, { prefill: usage.prompt_tokens, sample: usage.completion_tokens });
      const args = chunks.flatMap((c) =>
        c === '[DONE]'
          ? []
          : ((c.choices as { delta: { tool_calls?: { function: { arguments?: string } }[] } }[])[0]?.delta.tool_calls ?? []),
      );
      const joined = args.map((d) => d.function.arguments ?? '').join('');
      assert.deepEqual(recording.transcript().turns[0].toolCalls[0].arguments, JSON.parse(joined), 'the recording joined the pieces');

      const before = { ...recording.tokens };
      const silent = chunksOf(await (await post(chat, { ...wordle, messages: [...wordle.messages], stream: true })).text());
      assert.ok(
        silent.every((c) => c === '[DONE]' || (c.choices as unknown[]).length > 0),
        'no usage-only chunk reaches an agent that did not ask',
      );
      assert.ok(
        recording.tokens.prefill > before.prefill && recording.tokens.sample > before.sample,
        'its tokens are counted all the same',
      );
      assert.equal(recording.modelCalls, 2);
    } finally {
      await runtime.close();
    }
  });

  it('hands each event on as it comes: the policy sends the rest of its stream only after the agent got the first event', async () => {
    const first = { choices: [{ index: 0, delta: { content: 'first' } }] };
    let agentGotFirst!: () => void;
    const gotFirst = new Promise<void>((resolve) => (agentGotFirst = resolve));
    // A runtime that held the stream whole would wait for the policy's end, and the policy waits for the agent: the test would hang.
    const policy = createServer((req, res) => {
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify(first)}\n\n`);
        void gotFirst.then(() => {
          res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: ' rest' }, finish_reason: 'stop' }] })}\n\n`);
          res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } })}\n\n`);
          res.end('data: [DONE]\n\n');
        });
      });
    });
    await new Promise<void>((resolve) => policy.listen(0, '127.0.0.1', resolve));
    const runtime = await startJobRuntime({ baseUrl: `http://127.0.0.1:${(policy.address() as AddressInfo).port}/v1` });
    try {
      const recording = new RolloutRecording(task);
      runtime.add(recording);
      const answer = await post(`${runtime.endpointOf('traj-1')}/v1/chat/completions`, { ...wordle, stream: true });
      const reader = answer.body!.getReader();
      let text = '';
      while (!text.includes('\n\n')) {
        const part = await reader.read();
        assert.ok(!part.done, `the stream ended before its first event: ${JSON.stringify(text)}`);
        text += new TextDecoder().decode(part.value);
      }
      assert.deepEqual(chunksOf(text), [first]);
      agentGotFirst();
      for (let part = await reader.read(); !part.done; part = await reader.read()) text += new TextDecoder().decode(part.value);
      assert.equal(chunksOf(text).at(-1), '[DONE]');
      assert.ok(
        chunksOf(text).every((c) => c === '[DONE]' || (c.choices as unknown[]).length > 0),
        'the usage it asked for itself is dropped',
      );
      assert.deepEqual(recording.tokens, { prefill: 3, sample: 2 });
      assert.equal(recording.transcript().turns[0].text, 'first rest');
    } finally {
      await runtime.close();
      policy.close();
    }
  });

  it('cuts a policy answer larger than the cap, with a sentence naming the policy and the limit (stream: an SSE error event; otherwise 502)', async () => {
    const big = 'x'.repeat(4096);
    const policy = createServer((req, res) => {
      let text = '';
      req
        .on('data', (c: Buffer) => (text += c))
        .on('end', () => {
          if ((JSON.parse(text) as { stream?: boolean }).stream) {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            for (let i = 0; i < 10; i++) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: big } }] })}\n\n`);
            res.end('data: [DONE]\n\n');
          } else
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify({ choices: [{ message: { content: big.repeat(10) } }] }));
        });
    });
    await new Promise<void>((resolve) => policy.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(policy.address() as AddressInfo).port}/v1`;
    const runtime = await startJobRuntime({ baseUrl: base }, { maxAnswerBytes: 16 * 1024 });
    try {
      const recording = new RolloutRecording(task);
      runtime.add(recording);
      const chat = `${runtime.endpointOf('traj-1')}/v1/chat/completions`;
      const streamed = await (await post(chat, { ...wordle, stream: true })).text();
      const last = chunksOf(streamed).at(-1) as { error: { message: string } };
      assert.match(
        last.error.message,
        new RegExp(`^The policy at ${base}/chat/completions answered more than 16 KB; the local job runtime cuts answers at 16 KB\\.$`),
      );
      const whole = await post(chat, wordle);
      assert.equal(whole.status, 502);
      assert.match(await messageOf(whole), /answered more than .*cuts answers at/);
      assert.equal(recording.transcript().status, 'error');
      // The rollout keeps the limit, not an "aborted" from cutting the policy off.
      assert.deepEqual(
        recording.refusals.map((r) => r.replace(base, 'POLICY')),
        Array(2).fill('The policy at POLICY/chat/completions answered more than 16 KB; the local job runtime cuts answers at 16 KB.'),
      );
    } finally {
      await runtime.close();
      policy.close();
    }
  });

  it('names the paths it does not serve: <endpoint>/chat/completions and a doubled /v1 get the path diagnosis and are counted', async () => {
    const runtime = await startJobRuntime({ baseUrl: `${emulator.url}/v1` });
    try {
      runtime.add(new RolloutRecording(task));
      const endpoint = runtime.endpointOf('traj-1');
      const bare = await post(`${endpoint}/chat/completions`, wordle);
      assert.equal(bare.status, 404);
      assert.match(await messageOf(bare), new RegExp(`served at ${endpoint}/v1/chat/completions only.*adds "/v1" once`));
      await post(`${endpoint}/v1/v1/chat/completions`, wordle);
      await post(`${endpoint}/v1/v1/chat/completions`, wordle);
      assert.deepEqual(runtime.unservedPaths(), [
        { path: '/rollouts/traj-1/v1/v1/chat/completions', count: 2 },
        { path: '/rollouts/traj-1/chat/completions', count: 1 },
      ]);
    } finally {
      await runtime.close();
    }
  });

  it('outside a job: Sample and chat answer 400 "Could not find job"; reports for an unknown trajectory the service’s ResourceNotFoundException', async () => {
    const runtime = await startJobRuntime({ baseUrl: 'http://127.0.0.1:9/v1' });
    try {
      const stray = await post(`${runtime.url}/v1/chat/completions`, wordle);
      assert.equal(stray.status, 400);
      assert.match(await messageOf(stray), /^Could not find job/);
      const sample = await post(`${runtime.url}/sample`, wordle, {
        'x-amzn-sagemaker-job-arn': 'arn:aws:sagemaker:us-east-1:000000000000:job/AgentRFT/other',
      });
      assert.deepEqual([sample.status, sample.headers.get('x-amzn-errortype')], [400, 'ValidationException']);
      assert.equal(
        ((await sample.json()) as { message: string }).message,
        'Could not find job arn:aws:sagemaker:us-east-1:000000000000:job/AgentRFT/other',
      );
      assert.equal(runtime.unattributed, 2);
      const recording = new RolloutRecording(task);
      runtime.add(recording);
      const unknown = await post(
        `${runtime.url}/complete-rollout`,
        { TrajectoryId: 'nope', Status: 'ready' },
        { 'x-amzn-sagemaker-job-arn': JOB },
      );
      assert.deepEqual([unknown.status, unknown.headers.get('x-amzn-errortype')], [404, 'ResourceNotFoundException']);
      const down = await post(`${runtime.endpointOf('traj-1')}/v1/chat/completions`, wordle);
      assert.equal(down.status, 502);
      assert.match(await messageOf(down), /The policy at http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions did not answer/);
      assert.equal(recording.transcript().status, 'error');
    } finally {
      await runtime.close();
    }
  });

  it('base URL calls: the rollout the SDK’s X-Amzn-SageMaker-Trajectory-Id (or an old X-RFT-Metadata) names, else the one in flight; with several and none named, refused', async () => {
    const runtime = await startJobRuntime({ baseUrl: `${emulator.url}/v1`, model: 'scripted-0.9' });
    try {
      const [a, b, c] = ['traj-a', 'traj-b', 'traj-c'].map((id) => new RolloutRecording({ ...task, id }));
      [a, b, c].forEach((r) => runtime.add(r));
      const chat = `${runtime.baseUrl}/chat/completions`;
      assert.equal(runtime.baseUrl, `${runtime.url}/v1`);
      const sdk = (id: string) => ({ 'X-Amzn-SageMaker-Job-Arn': JOB, 'X-Amzn-SageMaker-Trajectory-Id': id });
      assert.equal((await post(chat, wordle, sdk('traj-c'))).status, 200);
      assert.equal(
        (await post(`${runtime.url}/sample-with-response-stream`, wordle, sdk('traj-c'))).headers.get('content-type')?.split(';')[0],
        'text/event-stream',
      );
      assert.equal((await post(chat, wordle, { 'x-rft-metadata': JSON.stringify({ job_id: 'j', rollout_id: 'traj-b' }) })).status, 200);
      assert.equal((await post(chat, wordle, { 'X-RFT-Metadata': 'job_id=j;rollout_id=traj-a' })).status, 200);
      assert.deepEqual([a.modelCalls, b.modelCalls, c.modelCalls], [1, 1, 2]);
      const refused = await post(chat, wordle);
      assert.equal(refused.status, 409);
      assert.match(await messageOf(refused), /3 rollouts are in flight.*X-Amzn-SageMaker-Trajectory-Id.*--concurrency 1/);
      assert.equal(runtime.ambiguous, 1);
      runtime.ended('traj-a');
      runtime.ended('traj-c');
      assert.equal((await post(chat, wordle)).status, 200, 'the one rollout left in flight takes the call');
      assert.deepEqual([a.modelCalls, b.modelCalls], [1, 2]);
      runtime.ended('traj-b');
      assert.equal((await post(chat, wordle)).status, 400, 'no rollout in flight: Could not find job');
    } finally {
      await runtime.close();
    }
  });
});
