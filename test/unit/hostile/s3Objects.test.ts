import { strict as assert } from 'node:assert';
import { AwsClients } from '../../../src/aws/clients';
import { readBoundedText } from '../../../src/aws/responseBody';
import type { TraceInfo } from '../../../src/core/rollouts';
import { s3ArtifactReader } from '../../../src/services/rollouts';
import { startStandIn, type ObjectMode } from './standIn';
import { ceiling } from '../../host/lib/ceiling';

// A trace's traces.json read from a misbehaving S3 through the real SDK: each ends with a sentence naming S3, the
// object and the limit, within the time cap, and never with the permissions hint (nothing was denied).

const MB = 2 ** 20;
const limits = { bytes: 1 * MB, seconds: 2 };
const info: TraceInfo = {
  trace_id: 'tr-hostile',
  tags: { 'mlflow.artifactLocation': 's3://mlflow-artifacts/1/traces/tr-hostile/artifacts' },
};
const object = 's3://mlflow-artifacts/1/traces/tr-hostile/artifacts/traces.json';

async function readFrom(mode: ObjectMode): Promise<{ message: string; ms: number }> {
  const server = await startStandIn({ object: mode });
  const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: server.url, maxAttempts: 1 }));
  const started = Date.now();
  try {
    await s3ArtifactReader(aws, undefined, limits)(info, new AbortController().signal);
    return { message: 'read without an error', ms: Date.now() - started };
  } catch (error) {
    return { message: (error as Error).message, ms: Date.now() - started };
  } finally {
    aws.reset();
    await server.close();
  }
}

describe('hostile S3: a trace artifact (traces.json)', function () {
  this.timeout(ceiling(20_000));

  it('an endless body stops at the byte cap, with a sentence naming S3, the object and the cap', async () => {
    const { message } = await readFrom({ kind: 'endless', bytes: limits.bytes + 1 });
    assert.ok(message.includes(`S3 GetObject ${object} passed 1 MB`), message);
    assert.doesNotMatch(message, /role needs/);
  });

  it('no answer at all: ended at the time cap with "gave no answer within 2 s", not a bare "aborted"', async () => {
    const { message, ms } = await readFrom({ kind: 'no-headers' });
    assert.ok(message.includes(`S3 GetObject ${object} accepted the connection but gave no answer within 2 s`), message);
    assert.ok(ms < limits.seconds * 1000 + 10_000, `${ms} ms`);
  });

  it('headers then silence: ended at the time cap, with the bytes that came', async () => {
    const { message, ms } = await readFrom({ kind: 'stalled-body' });
    assert.ok(message.includes(`S3 GetObject ${object} answered but sent only 9 bytes of its body in 2 s`), message);
    assert.ok(ms < limits.seconds * 1000 + 10_000, `${ms} ms`);
  });

  it('a gzip bomb (S3 gives objects as stored): named as gzip data, not JSON, without a permissions hint', async () => {
    const { message } = await readFrom({ kind: 'bomb', inflatedBytes: 64 * MB });
    assert.match(message, /GetObject s3:\/\/mlflow-artifacts\/.*: it is gzip-compressed data, not JSON/);
    assert.doesNotMatch(message, /role needs/);
  });

  it('JSON 100,000 levels deep: named as too deep, not a stack overflow', async () => {
    const { message } = await readFrom({ kind: 'deep', levels: 100_000 });
    assert.ok(message.includes(`GetObject ${object}): it holds JSON nested deeper than 256 levels, which is not read.`), message);
    assert.doesNotMatch(message, /call stack|role needs/);
  });
});

describe('hostile S3: trace artifacts read side by side', () => {
  it('share one allowance: the read that would pass it is cut with a sentence, the others finish, and it comes back after', async () => {
    const shared = { held: 0, limit: 10, what: 'trace artifacts read at once' };
    const timeout = { signal: new AbortController().signal, seconds: 5 };
    // Two bodies delivered in turns, two bytes at a time: 6 and 8 bytes, 14 together against an allowance of 10.
    async function* body(chunks: number) {
      for (let i = 0; i < chunks; i++) {
        yield new Uint8Array(2).fill(97);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const [small, large] = await Promise.allSettled([
      readBoundedText(body(3), 'S3 GetObject s3://b/small', 100, timeout, shared),
      readBoundedText(body(4), 'S3 GetObject s3://b/large', 100, timeout, shared),
    ]);
    assert.deepEqual(small, { status: 'fulfilled', value: 'aaaaaa' });
    assert.equal(large.status, 'rejected');
    assert.match(
      (large as PromiseRejectedResult).reason.message,
      /^the answer from S3 GetObject s3:\/\/b\/large was not read further: the trace artifacts read at once held more than/,
    );
    assert.equal(shared.held, 0, 'what the reads held is given back when they end');
    // Once one was cut, the rest of the job's reads are not read on: bodies that big make the allowance spent.
    await assert.rejects(readBoundedText(body(1), 'S3 GetObject s3://b/next', 100, timeout, shared), /held more than/);
  });
});
