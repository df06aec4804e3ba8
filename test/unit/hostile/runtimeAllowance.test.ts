import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import { CheckAllowance } from '../../../src/core/signal/checkAllowance';
import { RolloutRecording } from '../../../src/core/signal/rolloutRecording';
import { startJobRuntime } from '../../../src/services/signal/jobRuntime';
import { startKeyPolicy } from './keyPolicy';
import { listenForAWhile } from './lifetime';
import { startPolicyStandIn } from './policyStandIn';
import { ceiling } from '../../host/lib/ceiling';

// The local job runtime under hostile agents and policies, bounded: one allowance for the whole check (here a few MB, so
// each case takes a second), the rollout whose draw would pass it ended with a sentence, the others answered.

const JOB = 'arn:aws:sagemaker:us-east-1:000000000000:job/AgentRFT/local';
const MB = 1024 * 1024;
const recordingOf = (id: string, allowance?: CheckAllowance) =>
  new RolloutRecording({ id, groupKey: 'g', row: {}, rowIndex: 0, prompt: 'p', jobArn: JOB }, allowance);
const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const messageOf = async (r: Response) => ((await r.json()) as { message: string }).message;

describe('hostile: the local job runtime holds one allowance per check', function () {
  this.timeout(ceiling(15_000));

  it('policies whose streams never end, 4 at once: the rollouts past the allowance end naming the policy and the limit; the held peak stays within it', async () => {
    const allowance = new CheckAllowance(4 * MB);
    const policy = await startPolicyStandIn({ kind: 'endless', bytes: 3 * MB + 1 });
    const stopped: string[] = [];
    const runtime = await startJobRuntime(
      { baseUrl: policy.baseUrl },
      { allowance, maxAnswerBytes: 3 * MB, onOverAllowance: (id) => stopped.push(id) },
    );
    try {
      const recordings = ['a', 'b', 'c', 'd'].map((id) => recordingOf(id, allowance));
      for (const r of recordings) runtime.add(r);
      const body = JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'go' }] });
      const texts = await Promise.all(
        recordings.map(async (r) => (await post(`${runtime.endpointOf(r.task.id)}/v1/chat/completions`, body)).text()),
      );
      const overs = texts.filter((t) => /would pass the local check's allowance of 4 MB/.test(t));
      assert.ok(overs.length >= 1, 'at least one rollout passed the allowance');
      for (const t of overs) assert.match(t, new RegExp(`The policy at ${policy.baseUrl}/chat/completions's answer`));
      assert.ok(allowance.peak <= 4 * MB, `held at most ${allowance.peak}`);
      assert.equal(stopped.length, overs.length, 'each stopped rollout’s agent is told to end');
      for (const id of stopped) assert.match(recordings.find((r) => r.task.id === id)!.transcript().error ?? '', /allowance of 4 MB/);
    } finally {
      await runtime.close();
      await policy.close();
    }
  });

  it('huge policy errors at once are held within the allowance: each rollout over it ends naming the policy', async () => {
    const allowance = new CheckAllowance(8 * MB);
    const policy = await startPolicyStandIn({ kind: 'error', status: 500, bytes: 9 * MB });
    const runtime = await startJobRuntime({ baseUrl: policy.baseUrl }, { allowance });
    try {
      const recordings = ['a', 'b', 'c', 'd'].map((id) => recordingOf(id, allowance));
      for (const r of recordings) runtime.add(r);
      const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'go' }] });
      const answers = await Promise.all(recordings.map((r) => post(`${runtime.endpointOf(r.task.id)}/v1/chat/completions`, body)));
      const texts = await Promise.all(answers.map((a) => a.text()));
      assert.deepEqual(
        answers.map((a) => a.status),
        [502, 502, 502, 502],
      );
      for (const t of texts)
        assert.match(t, /The policy at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions's answer .* allowance of 8 MB/);
      assert.ok(allowance.peak <= 8 * MB, `held at most ${allowance.peak}`);
      assert.equal(allowance.held, 0, 'everything held for the calls was given back');
    } finally {
      await runtime.close();
      await policy.close();
    }
  });

  it('concurrent large request bodies: those past the allowance are refused (ServiceQuotaExceededException) naming the agent, the others relayed', async () => {
    // Each 3 MB body draws four times its bytes (12 MB): two fit in 32 MB, a third does not.
    const allowance = new CheckAllowance(32 * MB);
    let answer!: () => void;
    const policy = await startKeyPolicy(30_000, new Promise<void>((resolve) => (answer = resolve)));
    const runtime = await startJobRuntime({ baseUrl: policy.baseUrl }, { allowance });
    try {
      const recordings = ['a', 'b', 'c'].map((id) => recordingOf(id, allowance));
      for (const r of recordings) runtime.add(r);
      const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(3 * MB) }] });
      const calls = recordings.map((r) => post(`${runtime.endpointOf(r.task.id)}/v1/chat/completions`, body));
      const first = await Promise.race(calls);
      assert.equal(first.status, 402, 'the body past the allowance is answered while the others wait for the policy');
      assert.equal(first.headers.get('x-amzn-errortype'), 'ServiceQuotaExceededException');
      assert.match(
        await messageOf(first),
        /^The agent's request of \d+ bytes \(\d+ bytes read so far; a request is held about 4 times over while it is answered\) would pass the local check's allowance of 32 MB/,
      );
      answer();
      const statuses = (await Promise.all(calls)).map((r) => r.status).sort();
      assert.ok(statuses.filter((s) => s === 200).length >= 1, `${statuses}`);
      assert.ok(allowance.peak <= 32 * MB);
      assert.ok(
        allowance.peak > 3 * 3 * MB,
        `a body draws more than its bytes: its text, messages and forwarded copy (peak ${allowance.peak})`,
      );
      assert.ok(allowance.held < 1024, 'only what is kept of the rollouts stays held');
    } finally {
      answer?.();
      await runtime.close();
      await policy.close();
    }
  });

  it('a policy error past 64 KB reaches the agent whole and unread; the rollout quotes its message from the start, cut', async () => {
    const policy = await startPolicyStandIn({ kind: 'error', status: 500, bytes: 2 * MB });
    const runtime = await startJobRuntime({ baseUrl: policy.baseUrl });
    try {
      const recording = recordingOf('a');
      runtime.add(recording);
      const answer = await post(`${runtime.endpointOf('a')}/v1/chat/completions`, JSON.stringify({ messages: [] }));
      assert.equal(answer.status, 500);
      assert.equal((await answer.arrayBuffer()).byteLength, 2 * MB, 'the body as the policy sent it');
      assert.match(recording.refusals[0], /^overloaded overloaded .*… \(cut; [\d,]+ characters in all\)$/);
      assert.ok(recording.refusals[0].length < 2000, `${recording.refusals[0].length} characters kept`);
    } finally {
      await runtime.close();
      await policy.close();
    }
  });

  it('a policy that closes mid-answer: the agent gets 502 and the rollout names the policy’s URL and what it did', async () => {
    const server = createServer((req, res) => {
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"choices":[{"message":{"content":"hal');
        setImmediate(() => res.destroy());
      });
    });
    const { port, close } = await listenForAWhile(server, 20_000);
    const runtime = await startJobRuntime({ baseUrl: `http://127.0.0.1:${port}/v1` });
    try {
      const recording = recordingOf('a');
      runtime.add(recording);
      const answer = await post(`${runtime.endpointOf('a')}/v1/chat/completions`, JSON.stringify({ messages: [] }));
      assert.equal(answer.status, 502);
      const sentence = `The policy at http://127.0.0.1:${port}/v1/chat/completions closed its answer (200) after`;
      assert.ok((await messageOf(answer)).startsWith(sentence));
      assert.ok(recording.refusals[0].startsWith(sentence));
    } finally {
      await runtime.close();
      await close();
    }
  });
});

describe('the local job runtime passes on what the agent’s client needs', () => {
  it('a 429 from the policy reaches the agent with its Retry-After', async () => {
    const server = createServer((req, res) =>
      req
        .resume()
        .on('end', () =>
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' }).end('{"error":{"message":"slow down"}}'),
        ),
    );
    const { port, close } = await listenForAWhile(server, 20_000);
    const runtime = await startJobRuntime({ baseUrl: `http://127.0.0.1:${port}/v1` });
    try {
      const recording = recordingOf('a');
      runtime.add(recording);
      const answer = await post(`${runtime.endpointOf('a')}/v1/chat/completions`, JSON.stringify({ messages: [] }));
      assert.deepEqual([answer.status, answer.headers.get('retry-after')], [429, '7']);
      assert.deepEqual(recording.refusals, ['slow down']);
    } finally {
      await runtime.close();
      await close();
    }
  });
});

describe('the local job runtime names an answer cut by its own side', () => {
  it('an agent that hangs up mid-stream (its rollout ended): the rollout says so, not "This operation was aborted"', async () => {
    const server = createServer((req, res) =>
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // One event, then a policy that thinks for ever (the stand-in closes at its lifetime).
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'thinking' } }] })}\n\n`);
      }),
    );
    const { port, close } = await listenForAWhile(server, 20_000);
    const runtime = await startJobRuntime({ baseUrl: `http://127.0.0.1:${port}/v1` });
    try {
      const recording = recordingOf('a');
      runtime.add(recording);
      const agent = new AbortController();
      const answer = await fetch(`${runtime.endpointOf('a')}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ stream: true, messages: [] }),
        signal: agent.signal,
      });
      await answer.body!.getReader().read();
      agent.abort();
      const ceiling = Date.now() + 10_000;
      while (!recording.refusals.length && Date.now() < ceiling) await new Promise((resolve) => setImmediate(resolve));
      assert.match(
        recording.refusals[0] ?? '',
        /broke off \(the agent hung up while the policy was still answering \(its rollout ended, e\.g\. at the --timeout\)\)/,
      );
    } finally {
      await runtime.close();
      await close();
    }
  });
});
