import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { RolloutRecording } from '../../../../src/core/signal/rolloutRecording';
import { startJobRuntime, type JobRuntime } from '../../../../src/services/signal/jobRuntime';
import { listenForAWhile } from '../../hostile/lifetime';
import { startKeyPolicy, type KeyPolicy } from '../../hostile/keyPolicy';
import { ceiling } from '../../../host/lib/ceiling';

// As a browser would attack it: a page of another origin posting to the runtime, and a page whose own name was rebound to
// 127.0.0.1 (Chromium's host resolver maps rebind.test there) reading the runtime's answers as its own.

const JOB = 'arn:aws:sagemaker:us-east-1:000000000000:job/AgentRFT/local';
const chat = JSON.stringify({ model: 'policy', messages: [{ role: 'user', content: 'hi' }] });

describe('local job runtime: a page in Chromium gets no answer and the policy never sees the key', function () {
  this.timeout(ceiling(30_000));
  let browser: Browser;
  let policy: KeyPolicy;
  let runtime: JobRuntime;
  let page: { port: number; close(): Promise<void> };
  before(async () => {
    browser = await chromium.launch({
      executablePath: process.env.MTRL_CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      // Private Network Access off: browsers without it (Firefox, Safari) send these requests, and the runtime must refuse them itself.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--host-resolver-rules=MAP rebind.test 127.0.0.1',
        '--disable-features=PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests,LocalNetworkAccessChecks',
      ],
    });
    policy = await startKeyPolicy();
    runtime = await startJobRuntime({ baseUrl: policy.baseUrl, apiKey: 'secret-key' });
    runtime.add(new RolloutRecording({ id: 't1', groupKey: 'g', row: {}, rowIndex: 0, prompt: 'p', jobArn: JOB }));
    page = await listenForAWhile(
      createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>a page</title>')),
      60_000,
    );
  });
  after(async () => {
    await browser?.close();
    await runtime?.close();
    await policy?.close();
    await page?.close();
  });

  it('a cross-origin fetch (no-cors text/plain, and JSON behind a preflight) is refused before the policy', async () => {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${page.port}/`);
    const outcomes = await tab.evaluate(
      async ({ url, body }) => {
        const simple = await fetch(url, { method: 'POST', mode: 'no-cors', body }).then(
          (r) => `opaque ${r.type}`,
          (e: Error) => `failed ${e.message}`,
        );
        const json = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
          (r) => `read ${r.status}`,
          (e: Error) => `failed ${e.message}`,
        );
        return [simple, json];
      },
      { url: `${runtime.url}/rollouts/t1/v1/chat/completions`, body: chat },
    );
    assert.equal(outcomes[0], 'opaque opaque', 'a no-cors answer is never readable');
    assert.match(outcomes[1], /^failed /, 'the preflight is refused, so the JSON post is never sent');
    assert.deepEqual(policy.keysSeen, [], 'the policy saw no call, so never the key');
    await tab.close();
  });

  it('a rebound name (rebind.test → 127.0.0.1, same origin for the page) reads only the 403 sentence', async () => {
    const tab = await browser.newPage();
    const port = new URL(runtime.url).port;
    // The attacker's page, served under its own name at the runtime's port before the name is rebound.
    await tab.route(`http://rebind.test:${port}/`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>rebound</title>' }),
    );
    await tab.goto(`http://rebind.test:${port}/`);
    const answer = await tab.evaluate(async (body) => {
      const r = await fetch('/rollouts/t1/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return { status: r.status, text: await r.text() };
    }, chat);
    assert.equal(answer.status, 403, answer.text);
    assert.match(answer.text, /named the host \\"rebind\.test:\d+\\"/);
    assert.deepEqual(policy.keysSeen, []);
    await tab.close();
  });
});
