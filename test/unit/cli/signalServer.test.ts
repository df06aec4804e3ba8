import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { ceiling } from '../../host/lib/ceiling';

async function mtrl(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const GUESS_WORD = {
  type: 'function',
  function: { name: 'guess_word', parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] } },
};

/**
 * A customer rollout server (the SDK's rft/models.py contract): one model call through metadata.endpoint with the SDK's
 * headers, then a reward that differs within each group. Every other rollout is accepted at once and reported later
 * through the SDK feedback client's calls; the rest answer their reward.
 */
function rolloutServer(healthy: () => boolean): Server {
  let n = 0;
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const send = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.method === 'GET' && req.url === '/health')
        return healthy() ? send(200, { status: 'healthy' }) : send(503, { status: 'starting' });
      if (req.method !== 'POST' || req.url !== '/rollout') return send(404, {});
      const request = JSON.parse(body) as {
        instance: { prompt: string };
        metadata: { endpoint: string; job_arn: string; trajectory_id: string };
        inference_params?: { temperature?: number };
        model_endpoint?: string;
      };
      assert.ok(request.instance.prompt && request.inference_params && request.model_endpoint, 'the SDK RolloutRequest');
      const { endpoint, job_arn: jobArn, trajectory_id: trajectoryId } = request.metadata;
      const reward = n++ % 2;
      const play = async () => {
        await fetch(`${endpoint}/v1/chat/completions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'X-Amzn-SageMaker-Job-Arn': jobArn,
            'X-Amzn-SageMaker-Trajectory-Id': trajectoryId,
          },
          body: JSON.stringify({ model: 'policy', messages: [{ role: 'user', content: request.instance.prompt }], tools: [GUESS_WORD] }),
        }).then((r) => r.text());
        const post = (op: string, fields: object) =>
          fetch(`${endpoint}/${op}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ JobArn: jobArn, TrajectoryId: trajectoryId, ...fields }),
          });
        await post('update-reward', { Rewards: [reward] });
        await post('complete-rollout', { Status: 'ready' });
      };
      if (reward === 0) {
        send(200, { status: 'accepted' });
        void play();
      } else void play().then(() => send(200, { reward }));
    });
  });
}

describe('mtrl signal --local --server (a customer rollout server plays the local check)', function () {
  this.timeout(ceiling(60_000));
  const data = path.resolve(__dirname, '../../../test/fixtures/datasets/training-data.jsonl');
  let healthy = true;
  let server: Server;
  let url: string;

  before(async () => {
    server = rolloutServer(() => healthy);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('plays K rows × G rollouts on the server, reads rewards it reports later or answers, and keeps the check under its URL', async () => {
    const store = mkdtempSync(path.join(tmpdir(), 'mtrl-signal-server-'));
    const args = ['--data', data, '--rows', '3', '--group-size', '2', '--seed', '7', '--store', store, '--json'];
    const r = await mtrl('signal', '--local', '--server', url, ...args);
    assert.equal(r.code, 0, r.out + r.err);
    const report = JSON.parse(r.out) as { rollouts: number; groups: number; zeroAdvantage: { groups: number }; problem?: string };
    assert.equal(report.problem, undefined);
    assert.equal(report.rollouts, 6);
    assert.equal(report.groups, 3);
    assert.equal(report.zeroAdvantage.groups, 0, 'each group holds a 0 and a 1');
    assert.match(r.err, new RegExp(`rollouts of ${url.replace(/\./g, '\\.')}`));
    const listed = JSON.parse((await mtrl('signal', '--check', '--store', store, '--json')).out) as { key: Record<string, string> }[];
    assert.deepEqual(listed[0].key, { dataset: data, runtime: url, reward: url });
  });

  it('an unhealthy server is a usage error naming GET /health; --server without --local, or with a file, is refused', async () => {
    healthy = false;
    try {
      const r = await mtrl('signal', '--local', '--server', url, '--data', data, '--rows', '1', '--group-size', '2');
      assert.equal(r.code, 2);
      assert.match(r.err, /GET \/health answered HTTP 503/);
    } finally {
      healthy = true;
    }
    const alone = await mtrl('signal', '--server', url, '--data', data, '--rows', '1', '--group-size', '2');
    assert.equal(alone.code, 2);
    assert.match(alone.err, /--server goes with --local and no agent file/);
  });
});
