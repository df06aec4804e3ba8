import { strict as assert } from 'node:assert';
import { AwsClients } from '../../../src/aws/clients';
import type { TraceInfo } from '../../../src/core/rollouts';
import { s3ArtifactReader } from '../../../src/services/rollouts';
import { startStandIn, type ObjectMode } from './standIn';

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
  this.timeout(20_000);

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
