import { strict as assert } from 'node:assert';
import { AwsClients } from '../../../src/aws/clients';
import { describeAwsError } from '../../../src/aws/errors';
import { PaginationError } from '../../../src/aws/paginate';
import { listObjectsV2 } from '../../../src/aws/s3';
import { listJobs } from '../../../src/aws/sagemaker';
import { main } from '../../../src/cli';
import { startStandIn, type Hostility, type StandIn } from './standIn';

async function withStandIn(h: Hostility, body: (server: StandIn, aws: AwsClients) => Promise<void>): Promise<void> {
  const server = await startStandIn(h);
  const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: server.url, maxAttempts: 2 }));
  try {
    await body(server, aws);
  } finally {
    aws.reset();
    await server.close();
  }
}

async function drain(items: AsyncIterable<unknown>): Promise<unknown> {
  try {
    for await (const item of items) void item;
    return undefined;
  } catch (error) {
    return error;
  }
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

describe('hostile SageMaker and S3 through the real SDK', () => {
  it('ends ListJobs and ListObjectsV2 when the token repeats', async () => {
    await withStandIn({ listRepeat: true }, async (server, aws) => {
      const jobs = await drain(listJobs(aws.sagemaker(), { JobCategory: 'AgentRFT' }));
      assert.ok(jobs instanceof PaginationError && jobs.reason === 'repeated-token', String(jobs));
      assert.equal(server.requests.get('sagemaker:ListJobs'), 2);
      const objects = await drain(listObjectsV2(aws.s3(), 'b', 'p/'));
      assert.ok(objects instanceof PaginationError && objects.reason === 'repeated-token', String(objects));
      assert.match(describeAwsError(objects), /S3 objects under s3:\/\/b\/p\/ after 2 pages and 2 items: the server sent a page token/);
    });
  });

  it('names the service, operation and endpoint for throttling, not a bare "Rate exceeded"', async () => {
    await withStandIn({ sagemakerFault: { status: 400, type: 'ThrottlingException', message: 'Rate exceeded' } }, async (server, aws) => {
      const error = await drain(listJobs(aws.sagemaker(), { JobCategory: 'AgentRFT' }));
      const text = describeAwsError(error, { endpoint: server.url, action: 'Listing jobs' });
      assert.ok(text.startsWith(`Listing jobs failed: SageMaker ListJobs (${server.url}) is throttling requests`), text);
      assert.match(text, /Wait a minute and try again/);
    });
  });

  it('names the service and endpoint for an internal error', async () => {
    await withStandIn(
      { sagemakerFault: { status: 500, type: 'InternalFailure', message: 'We encountered an internal error.' } },
      async (server, aws) => {
        const error = await drain(listJobs(aws.sagemaker(), { JobCategory: 'AgentRFT' }));
        assert.match(
          describeAwsError(error, { endpoint: server.url }),
          /^SageMaker ListJobs \(http:\/\/127\.0\.0\.1:\d+\) had an internal error/,
        );
      },
    );
  });
});

describe('hostile SageMaker answers that are not JSON', () => {
  it('names the service, operation and endpoint for an HTML page or a cut-off answer with 200', async () => {
    for (const body of ['<html><body>Captive portal</body></html>', '{"JobSummaries":[{"JobName":"a"']) {
      await withStandIn({ sagemakerBody: body }, async (server, aws) => {
        const error = await drain(listJobs(aws.sagemaker(), { JobCategory: 'AgentRFT' }));
        const text = describeAwsError(error, { endpoint: server.url, action: 'Listing jobs' });
        assert.ok(text.startsWith(`Listing jobs failed: SageMaker ListJobs (${server.url}) sent an answer that could not be read`), text);
      });
    }
  });
});

describe('mtrl metrics against a hostile MLflow', () => {
  it('ends with exit 2 and one sentence on an endless token and on a gzip bomb', async () => {
    for (const history of [{ kind: 'repeat-token' }, { kind: 'bomb', inflatedBytes: 256 * 2 ** 20 }] as const) {
      await withStandIn({ history }, async (server) => {
        const run = await cli('metrics', 'hostile', '--endpoint', server.url);
        assert.equal(run.code, 2, run.err);
        assert.equal(run.err.trim().split('\n').length, 1, run.err);
        assert.match(
          run.err,
          /^mtrl metrics: Reading the metrics of hostile failed: (Stopped reading MLflow|the answer from .* passed 16 MB)/,
        );
      });
    }
  });

  it('prints the good points and says how many malformed ones were dropped', async () => {
    const points = [
      { key: 'rollout/reward/mean', value: 0.5, step: 1, timestamp: 1 },
      { key: 'rollout/reward/mean', value: null, step: 2, timestamp: 1 },
      { key: 'rollout/reward/mean', value: 1, step: 'x', timestamp: 1 },
    ];
    await withStandIn({ history: { kind: 'points', points } }, async (server) => {
      const run = await cli('metrics', 'hostile', '--endpoint', server.url, '--json');
      assert.equal(run.code, 0, run.err);
      assert.deepEqual((JSON.parse(run.out) as { steps: unknown[] }).steps, [{ step: 1, 'rollout/reward/mean': 0.5 }]);
      assert.match(run.err, /2 malformed points dropped/);
    });
  });

  it('refuses {"metrics":"not a list"} with exit 2', async () => {
    await withStandIn({ history: { kind: 'raw', status: 200, body: '{"metrics":"not a list"}' } }, async (server) => {
      const run = await cli('metrics', 'hostile', '--endpoint', server.url);
      assert.equal(run.code, 2, run.err);
      assert.match(run.err, /JSON of the wrong shape: "metrics" is string, not a list/);
    });
  });

  it('refuses a run that lists more metric keys than any job logs, before asking for their histories', async () => {
    await withStandIn({ keys: Array.from({ length: 2_500 }, (_, i) => `k${i}`) }, async (server) => {
      const run = await cli('metrics', 'hostile', '--endpoint', server.url, '--json');
      assert.equal(run.code, 2, run.err);
      assert.match(run.err, /lists 2,500 metric keys; a job logs about a hundred, and this reader loads at most 2,000/);
      assert.equal(server.requests.get('/api/2.0/mlflow/metrics/get-history'), undefined);
    });
  });

  it('writes metric names that a spreadsheet would run as neutral CSV cells', async () => {
    const keys = ['=HYPERLINK("http://x","y")', '+cmd|/C calc', '@SUM(A1)'];
    const points = [{ value: 1, step: 1, timestamp: 1 }];
    await withStandIn({ keys, history: { kind: 'points', points } }, async (server) => {
      const run = await cli('metrics', 'hostile', '--endpoint', server.url, '--csv');
      assert.equal(run.code, 0, run.err);
      assert.equal(run.out.split('\n')[0], `step,'+cmd|/C calc,"'=HYPERLINK(""http://x"",""y"")",'@SUM(A1)`);
    });
  });
});
