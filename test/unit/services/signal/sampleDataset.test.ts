import { strict as assert } from 'node:assert';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { writeSampledDataset } from '../../../../src/services/signal/sampleDataset';
import { withEmulator } from '../../emulator/helpers';
import { ceiling } from '../../../host/lib/ceiling';

const rows = Array.from({ length: 20 }, (_, i) => JSON.stringify({ prompt: `task ${i}` })).join('\n') + '\n';

describe('sampled rows for a signal check: create-only means it (emulator, real SDK)', function () {
  this.timeout(ceiling(20_000));

  it('reuses an object holding the very rows, and never one holding other rows: those get the next key', async () => {
    await withEmulator({ history: false }, async (_emulator, aws) => {
      const s3 = aws.s3();
      await s3.send(new CreateBucketCommand({ Bucket: 'data' }));
      await s3.send(new PutObjectCommand({ Bucket: 'data', Key: 'train/rows.jsonl', Body: rows }));
      const first = await writeSampledDataset(s3, 's3://data/train/rows.jsonl', 5, 7);
      assert.equal(first.created, true);
      const again = await writeSampledDataset(s3, 's3://data/train/rows.jsonl', 5, 7);
      assert.deepEqual([again.uri, again.created], [first.uri, false]);
      // Someone writes other rows under the sample's key: the next check must not run on them.
      const key = first.uri.replace('s3://data/', '');
      await s3.send(new PutObjectCommand({ Bucket: 'data', Key: key, Body: '{"prompt":"not sampled"}\n' }));
      const third = await writeSampledDataset(s3, 's3://data/train/rows.jsonl', 5, 7);
      assert.notEqual(third.uri, first.uri);
      assert.equal(third.created, true);
      const written = await s3.send(new GetObjectCommand({ Bucket: 'data', Key: third.uri.replace('s3://data/', '') }));
      const text = (await written.Body?.transformToString()) ?? '';
      assert.equal(text.split('\n').filter(Boolean).length, 5);
      assert.ok(!text.includes('not sampled'));
    });
  });
});
