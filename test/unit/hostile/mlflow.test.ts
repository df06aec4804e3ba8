import { strict as assert } from 'node:assert';
import { MALFORMED, MlflowError, NOT_JSON } from '../../../src/aws/mlflow/answers';
import { MlflowClient } from '../../../src/aws/mlflow/client';
import { describeMlflowError } from '../../../src/aws/mlflow/errors';
import { PaginationError } from '../../../src/aws/paginate';
import { BodyTooLarge, SlowAnswer } from '../../../src/aws/responseBody';
import { parseMlflowArn } from '../../../src/core/metrics/mlflow';
import { MLFLOW_APP, RUN_ID, startStandIn, type Hostility, type StandIn } from './standIn';

const credentials = async () => ({ accessKeyId: 'test', secretAccessKey: 'test' });

async function withMlflow(
  h: Hostility,
  body: (client: MlflowClient, server: StandIn) => Promise<void>,
  options: { timeoutMs?: number; maxBodyBytes?: number } = {},
): Promise<void> {
  const server = await startStandIn(h);
  try {
    const client = new MlflowClient(parseMlflowArn(MLFLOW_APP)!, { credentials, endpoint: server.url, maxAttempts: 1, ...options });
    await body(client, server);
  } finally {
    await server.close();
  }
}

const historyCalls = (server: StandIn) => server.requests.get('/api/2.0/mlflow/metrics/get-history') ?? 0;

describe('hostile MLflow', () => {
  it('ends a history whose page token repeats after the second page, with the items it had', async () => {
    await withMlflow({ history: { kind: 'repeat-token' } }, async (client, server) => {
      const error = await client.metricHistory(RUN_ID, 'loss').catch((e: unknown) => e);
      assert.ok(error instanceof PaginationError, String(error));
      assert.equal(error.reason, 'repeated-token');
      assert.equal(error.itemsRead, 2);
      assert.equal(historyCalls(server), 2);
    });
  });

  it('ends a history of endless empty pages after 10 requests', async () => {
    await withMlflow({ history: { kind: 'empty-endless' } }, async (client, server) => {
      const error = await client.metricHistory(RUN_ID, 'loss').catch((e: unknown) => e);
      assert.ok(error instanceof PaginationError && error.reason === 'empty-pages', String(error));
      assert.equal(historyCalls(server), 10);
    });
  });

  it('ends a history of endless full pages at the item cap', async () => {
    await withMlflow({ history: { kind: 'full-endless', perPage: 25_000 } }, async (client, server) => {
      const error = await client.metricHistory(RUN_ID, 'loss').catch((e: unknown) => e);
      assert.ok(error instanceof PaginationError && error.reason === 'too-many-items', String(error));
      assert.ok(historyCalls(server) <= 21, `${historyCalls(server)} pages`);
    });
  });

  it('refuses a gzip bomb as it inflates, at the cap counted after decompression', async () => {
    await withMlflow(
      { history: { kind: 'bomb', inflatedBytes: 512 * 2 ** 20 } },
      async (client) => {
        const error = await client.metricHistory(RUN_ID, 'loss').catch((e: unknown) => e);
        assert.ok(error instanceof BodyTooLarge, String(error));
        assert.match(describeMlflowError(error), /passed 1 MB \(after decompression\)/);
      },
      { maxBodyBytes: 2 ** 20 },
    );
  });

  it('reports a drip-feeding server as slow, not unreachable', async () => {
    await withMlflow(
      { history: { kind: 'drip', everyMs: 100 } },
      async (client) => {
        const error = await client.metricHistory(RUN_ID, 'loss').catch((e: unknown) => e);
        assert.ok(error instanceof SlowAnswer, String(error));
        const text = describeMlflowError(error, { action: 'Reading metrics' });
        assert.match(text, /answered but sent only \d+ bytes of its body in 0\.6 s/);
        assert.match(text, /too slow, not unreachable/);
        assert.doesNotMatch(text, /cannot reach/);
      },
      { timeoutMs: 600 },
    );
  });

  it('names an HTML page or a cut-off JSON answered with 200 as not JSON, with the endpoint', async () => {
    for (const body of ['<html><body>Sign in to the proxy</body></html>', '{"metrics":[{"key":"loss","val']) {
      await withMlflow({ history: { kind: 'raw', status: 200, body } }, async (client, server) => {
        const error = await client.metricHistory(RUN_ID, 'loss').catch((e: unknown) => e);
        assert.ok(error instanceof MlflowError && error.errorCode === NOT_JSON, String(error));
        const text = describeMlflowError(error);
        assert.ok(text.includes(`${server.url}/api/2.0/mlflow/metrics/get-history`), text);
        assert.match(text, /not JSON/);
      });
    }
  });

  it('refuses an answer of the wrong shape instead of printing NaN rows', async () => {
    for (const body of ['{"metrics":"not a list"}', '[1,2]', '{"metrics":[],"next_page_token":7}']) {
      await withMlflow({ history: { kind: 'raw', status: 200, body } }, async (client) => {
        const error = await client.metricHistory(RUN_ID, 'loss').catch((e: unknown) => e);
        assert.ok(error instanceof MlflowError && error.errorCode === MALFORMED, `${body}: ${String(error)}`);
        assert.match(describeMlflowError(error), /JSON of the wrong shape/);
      });
    }
  });

  it('keeps finite values at integer steps and counts the rest as dropped', async () => {
    const points = [
      { key: 'loss', value: 0.5, step: 1, timestamp: 1 },
      { key: 'loss', value: '0.25', step: '2', timestamp: '2' },
      { key: 'loss', value: 3 },
      { key: 'loss', value: null, step: 4 },
      { key: 'loss', value: '', step: 5 },
      { key: 'loss', value: true, step: 6 },
      { key: 'loss', value: '0x10', step: 7 },
      { key: 'loss', value: 1, step: 'x' },
      { key: 'loss', value: 'NaN', step: 9 },
      { key: 'loss', value: 1, step: 1.5 },
      'not an object',
    ];
    await withMlflow({ history: { kind: 'points', points } }, async (client) => {
      const history = await client.metricHistory(RUN_ID, 'loss');
      assert.deepEqual(
        history.points.map((p) => [p.step, p.value]),
        [
          [1, 0.5],
          [2, 0.25],
          [0, 3],
        ],
      );
      assert.equal(history.dropped, 8);
    });
  });

  it('shows a hostile error message on one line, escaped and cut, with its length', async () => {
    const message = `fine\nmtrl metrics: fake success\u001b[2J\u202Egnp.exe${'x'.repeat(5 * 2 ** 20)}`;
    await withMlflow(
      { history: { kind: 'raw', status: 400, body: JSON.stringify({ error_code: 'INVALID_PARAMETER_VALUE', message }) } },
      async (client) => {
        const error = await client.metricHistory(RUN_ID, 'loss').catch((e: unknown) => e);
        const text = describeMlflowError(error);
        for (const raw of ['\n', '\r', '\u001b', '\u202E']) assert.ok(!text.includes(raw), text.slice(0, 200));
        assert.match(text, /fine mtrl metrics: fake success\\u001b\[2J\\u202egnp\.exe/);
        assert.match(text, /cut; 5,242,9\d\d characters in all/);
        assert.ok(text.length < 1_000, `${text.length} characters`);
      },
      { maxBodyBytes: 8 * 2 ** 20 },
    );
  });

  it('names the call, the endpoint and the fix for throttling and internal errors', async () => {
    for (const [status, pattern] of [
      [429, /throttling requests, still after retries\. Wait a minute/],
      [
        500,
        /internal error \(500\) on metrics\/get-history at http:\/\/127\.0\.0\.1:\d+\/api\/2\.0\/mlflow\/metrics\/get-history\. Try again later/,
      ],
    ] as const) {
      const body = JSON.stringify({ error_code: 'X', message: 'We encountered an internal error.' });
      await withMlflow({ history: { kind: 'raw', status, body } }, async (client) => {
        const error = await client.metricHistory(RUN_ID, 'loss').catch((e: unknown) => e);
        assert.match(describeMlflowError(error), pattern);
      });
    }
  });

  it('ends a trace search whose token repeats', async () => {
    await withMlflow({ tracesRepeat: true }, async (client, server) => {
      const pages: unknown[] = [];
      const error = await (async () => {
        for await (const page of client.searchTraces({ experimentId: '1', runId: RUN_ID })) pages.push(page);
      })().catch((e: unknown) => e);
      assert.ok(error instanceof PaginationError, String(error));
      assert.equal(server.requests.get('/api/3.0/mlflow/traces/search'), 2);
    });
  });
});
