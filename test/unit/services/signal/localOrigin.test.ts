import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { RolloutRecording } from '../../../../src/core/signal/rolloutRecording';
import { startEmulator } from '../../../../src/emulator/server';
import { startJobRuntime, type JobRuntime } from '../../../../src/services/signal/jobRuntime';
import { startKeyPolicy, type KeyPolicy } from '../../hostile/keyPolicy';
import { ceiling } from '../../../host/lib/ceiling';

const JOB = 'arn:aws:sagemaker:us-east-1:000000000000:job/AgentRFT/local';
const chat = JSON.stringify({ model: 'policy', messages: [{ role: 'user', content: 'hi' }] });

/** One raw HTTP request with exactly these headers (fetch would not let a test set Host). */
function raw(url: string, headers: Record<string, string>, body = chat): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('local job runtime: closed to other origins', function () {
  this.timeout(ceiling(10_000));
  let policy: KeyPolicy;
  let runtime: JobRuntime;
  let host: string;
  beforeEach(async () => {
    policy = await startKeyPolicy();
    runtime = await startJobRuntime({ baseUrl: policy.baseUrl, apiKey: 'secret-key' });
    runtime.add(new RolloutRecording({ id: 't1', groupKey: 'g', row: {}, rowIndex: 0, prompt: 'p', jobArn: JOB }));
    host = new URL(runtime.url).host;
  });
  afterEach(async () => {
    await runtime.close();
    await policy.close();
  });

  it('serves a local agent: a loopback Host with its port (127.0.0.1, localhost, [::1]), JSON or no content type', async () => {
    const port = new URL(runtime.url).port;
    for (const name of ['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]']) {
      const answer = await raw(`${runtime.url}/rollouts/t1/v1/chat/completions`, {
        host: `${name}:${port}`,
        'content-type': 'application/json',
      });
      assert.equal(answer.status, 200, `${name}: ${answer.text}`);
    }
    assert.equal((await raw(`${runtime.url}/rollouts/t1/v1/chat/completions`, { host })).status, 200, 'no content type: agents send none');
    assert.deepEqual(policy.keysSeen, Array(5).fill('Bearer secret-key'));
  });

  it('refuses another Host (DNS rebinding), any Origin, and the body types a page sends without a preflight, with a sentence; the policy never sees them', async () => {
    const url = `${runtime.url}/rollouts/t1/v1/chat/completions`;
    const port = new URL(runtime.url).port;
    const cases: [Record<string, string>, RegExp][] = [
      [{ host: `attacker.example:${port}` }, /serves only requests addressed to 127\.0\.0\.1:\d+.*"attacker\.example:\d+"/],
      [{ host: 'attacker.example' }, /named the host "attacker\.example"/],
      [{ host: '127.0.0.1:1' }, /named the host "127\.0\.0\.1:1"/],
      [{ host: `localhost.attacker.example:${port}` }, /named the host/],
      [{ host, origin: 'http://attacker.example' }, /does not serve web pages.*Origin "http:\/\/attacker\.example"/],
      [{ host, origin: 'null' }, /Origin "null"/],
      [{ host, origin: runtime.url }, /does not serve web pages/],
      [{ host, 'content-type': 'text/plain' }, /a text\/plain body is what a web page sends/],
      [{ host, 'content-type': 'Text/Plain; charset=utf-8' }, /a text\/plain body/],
      [{ host, 'content-type': 'application/x-www-form-urlencoded' }, /application\/x-www-form-urlencoded body/],
      [{ host, 'content-type': 'multipart/form-data; boundary=x' }, /multipart\/form-data body/],
    ];
    for (const [headers, sentence] of cases) {
      const answer = await raw(url, headers);
      assert.equal(answer.status, 403, JSON.stringify(headers));
      assert.match((JSON.parse(answer.text) as { message: string }).message, sentence);
    }
    for (const path of ['/complete-rollout', '/update-reward', '/v1/models']) {
      const answer = await raw(
        `${runtime.url}${path}`,
        { host: 'rebound.example', 'content-type': 'application/json' },
        '{"TrajectoryId":"t1","Rewards":[1]}',
      );
      assert.equal(answer.status, 403, path);
    }
    assert.deepEqual(policy.keysSeen, [], 'no refused request reached the policy');
  });

  it('the emulator as a local check’s policy (localClientsOnly) refuses the same, and serves the runtime’s relay', async () => {
    const emulator = await startEmulator({ history: false, localClientsOnly: true });
    const local = await startJobRuntime({ baseUrl: `${emulator.url}/v1`, model: 'scripted-0.5' });
    try {
      local.add(new RolloutRecording({ id: 't2', groupKey: 'g', row: {}, rowIndex: 0, prompt: 'p', jobArn: JOB }));
      const url = `${emulator.url}/v1/chat/completions`;
      const own = new URL(emulator.url).host;
      const refused: Record<string, string>[] = [
        { host: 'attacker.example' },
        { host: own, origin: 'http://attacker.example' },
        { host: own, 'content-type': 'text/plain' },
      ];
      for (const headers of refused) {
        const answer = await raw(url, headers);
        assert.equal(answer.status, 403, JSON.stringify(headers));
        assert.match((JSON.parse(answer.text) as { message: string }).message, /^The emulator /);
      }
      assert.equal(emulator.requests.get('openai:ChatCompletions'), undefined, 'nothing refused was played');
      await raw(`${local.url}/rollouts/t2/v1/chat/completions`, { host: new URL(local.url).host });
      assert.equal(emulator.requests.get('openai:ChatCompletions'), 1, 'the runtime’s relay passed the emulator’s checks');
    } finally {
      await local.close();
      await emulator.close();
    }
  });
});
