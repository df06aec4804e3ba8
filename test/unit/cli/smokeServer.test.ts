import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { main } from '../../../src/cli';
import type { SmokeResult } from '../../../src/core/smoke';
import { ceiling } from '../../host/lib/ceiling';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

type Mode = 'catches' | 'raises' | 'unhealthy';

/** A customer rollout server as the SDK's rft/models.py documents it; on a rollout it reports to metadata.endpoint, as the SDK's feedback client does. */
function rolloutServer(mode: () => Mode): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      void (async () => {
        const send = (status: number, value: unknown) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
        if (req.method === 'GET' && req.url === '/health')
          return mode() === 'unhealthy' ? send(503, { status: 'starting' }) : send(200, { status: 'healthy' });
        if (req.method !== 'POST' || req.url !== '/rollout') return send(404, {});
        const request = JSON.parse(body) as {
          instance: { prompt: string };
          metadata: { endpoint: string; job_arn: string; trajectory_id: string };
        };
        assert.ok(request.instance.prompt, 'the row arrives as instance');
        const reported = await fetch(`${request.metadata.endpoint}/complete-rollout`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ JobArn: request.metadata.job_arn, TrajectoryId: request.metadata.trajectory_id, Status: 'ready' }),
        });
        if (reported.status !== 200 && mode() === 'raises') return send(500, { detail: `CompleteRollout failed: ${reported.status}` });
        send(200, { reward: 0.0 });
      })();
    });
  });
}

describe('mtrl smoke --server (a customer rollout server, the shared verdict)', function () {
  this.timeout(ceiling(15_000));
  let server: Server;
  let url: string;
  let mode: Mode = 'catches';

  before(async () => {
    server = rolloutServer(() => mode);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('passes a server that is healthy, reaches the Job Runtime (400 "Could not find job") and still answers a reward', async () => {
    mode = 'catches';
    const r = await run('smoke', '--server', url, '--json');
    assert.equal(r.code, 0, r.out + r.err);
    const result = JSON.parse(r.out) as SmokeResult;
    assert.deepEqual(
      result.verdict.checks.map((c) => [c.id, c.state]),
      [
        ['health', 'pass'],
        ['transport', 'pass'],
        ['wiring', 'pass'],
        ['contract', 'pass'],
      ],
    );
    assert.equal(result.verdict.reward, 0);
    assert.ok(
      result.verdict.evidence.some((l) => /complete-rollout: status=400 .*Could not find job/.test(l)),
      result.verdict.evidence.join('\n'),
    );
    const text = await run('smoke', '--server', url);
    assert.match(text.out, /rollout server http:\/\/127\.0\.0\.1:\d+ \(GET \/health, POST \/rollout\)/);
  });

  it('fails a server that raises on the 400 (HTTP 500), with the reward-contract diagnosis', async () => {
    mode = 'raises';
    const r = await run('smoke', '--server', url, '--json');
    assert.equal(r.code, 1, r.out);
    const result = JSON.parse(r.out) as SmokeResult;
    assert.equal(result.verdict.checks.find((c) => c.id === 'contract')?.state, 'fail');
    assert.match(result.verdict.summary, /raised when the Job Runtime answered 400/);
  });

  it('fails an unhealthy server before any rollout, naming the health contract; a server not listening likewise', async () => {
    mode = 'unhealthy';
    const r = await run('smoke', '--server', url, '--json');
    assert.equal(r.code, 1, r.out);
    const result = JSON.parse(r.out) as SmokeResult;
    assert.equal(result.verdict.checks[0].state, 'fail');
    assert.match(result.verdict.summary, /health check failed: GET \/health answered HTTP 503/);
    assert.equal(result.response, undefined);
    const down = await run('smoke', '--server', 'http://127.0.0.1:9', '--json');
    assert.equal(down.code, 1);
    assert.match((JSON.parse(down.out) as SmokeResult).verdict.summary, /GET \/health could not be sent/);
    const usage = await run('smoke', '--server', 'localhost:8080');
    assert.equal(usage.code, 2);
  });
});
