import assert from 'node:assert/strict';
import { AwsClients, credentialsFor, EMULATOR_CREDENTIALS, isLoopbackEndpoint } from '../../../src/aws/clients';
import { describeAwsError } from '../../../src/aws/errors';
import { headObject } from '../../../src/aws/s3';
import { startBlackHole } from './blackHole';
import { ceiling } from '../../host/lib/ceiling';

const CLEARED = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
];

describe('AWS clients', () => {
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    saved = Object.fromEntries(
      [...CLEARED, 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_EC2_METADATA_DISABLED'].map((k) => [k, process.env[k]]),
    );
    for (const k of CLEARED) delete process.env[k];
    // An empty provider chain: no variables, no files, no instance metadata.
    process.env.AWS_CONFIG_FILE = '/nonexistent/mtrl/config';
    process.env.AWS_SHARED_CREDENTIALS_FILE = '/nonexistent/mtrl/credentials';
    process.env.AWS_EC2_METADATA_DISABLED = 'true';
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('recognises loopback endpoints', () => {
    for (const url of ['http://127.0.0.1:4566', 'http://localhost:1234', 'http://[::1]:80', 'http://127.1.2.3'])
      assert.equal(isLoopbackEndpoint(url), true, url);
    for (const url of [undefined, '', 'https://sagemaker.us-east-1.amazonaws.com', 'http://10.0.0.1:4566', 'not a url'])
      assert.equal(isLoopbackEndpoint(url), false, String(url));
  });

  it('falls back to test credentials against a loopback endpoint when the chain finds nothing', async () => {
    assert.deepEqual(await credentialsFor({ region: 'us-east-1', endpoint: 'http://127.0.0.1:4566' })(), EMULATOR_CREDENTIALS);
  });

  it('never falls back against real AWS or with a named profile', async () => {
    await assert.rejects(credentialsFor({ region: 'us-east-1' })(), /Could not load credentials|credentials/i);
    await assert.rejects(credentialsFor({ region: 'us-east-1', endpoint: 'http://127.0.0.1:4566', profile: 'missing' })());
  });

  it('prefers real credentials from the chain over the fallback', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIAREAL';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret';
    assert.equal((await credentialsFor({ region: 'us-east-1', endpoint: 'http://127.0.0.1:4566' })()).accessKeyId, 'AKIAREAL');
  });

  it('caches one client per service, profile, region and endpoint, and rebuilds after reset', () => {
    let settings = { region: 'us-east-1', endpoint: 'http://127.0.0.1:4566' };
    const aws = new AwsClients(() => settings);
    const first = aws.sagemaker();
    assert.equal(aws.sagemaker(), first);
    assert.notEqual(aws.sagemaker('us-west-2'), first);
    settings = { ...settings, region: 'us-west-2' };
    assert.notEqual(aws.sagemaker(), first);
    aws.reset();
    assert.notEqual(aws.sagemaker('us-east-1'), first);
    aws.reset();
  });
});

describe('AWS clients against an endpoint that never answers (real SDK over HTTP)', function () {
  this.timeout(ceiling(20_000));
  let hole: Awaited<ReturnType<typeof startBlackHole>>;
  before(async () => {
    hole = await startBlackHole();
  });
  after(() => hole.close());

  it('fail after the request timeout, once: a call that got no answer is not sent again', async () => {
    const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: hole.url, requestTimeoutMs: 1_000 }));
    const started = Date.now();
    const error = await headObject(aws.s3(), { bucket: 'b', key: 'k' }).then(
      () => assert.fail('the call should fail'),
      (e: unknown) => e as { name?: string; $metadata?: { attempts?: number } },
    );
    const ms = Date.now() - started;
    aws.reset();
    assert.equal(error.name, 'TimeoutError');
    assert.equal(error.$metadata?.attempts, 1);
    assert.ok(ms >= 900 && ms < 5_000, `${ms} ms`);
    assert.match(
      describeAwsError(error, { endpoint: hole.url, action: 'Reading s3://b/k' }),
      new RegExp(`cannot reach ${hole.url} \\((ETIMEDOUT|timeout)\\)`),
    );
  });
});
