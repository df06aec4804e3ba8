import assert from 'node:assert/strict';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, type ListObjectsV2CommandOutput } from '@aws-sdk/client-s3';
import type { AwsClients } from '../../../src/aws/clients';
import { withEmulator } from './helpers';

const KEYS = ['a.jsonl', 'runs/1/train.jsonl', 'runs/1/val.jsonl', 'runs/2/train.jsonl', 'runs/readme.md', 'wordle/train.jsonl', 'z.txt'];

/** A bucket `fold` holding KEYS, each object's body its key. */
async function fill(aws: AwsClients): Promise<void> {
  await aws.s3().send(new CreateBucketCommand({ Bucket: 'fold' }));
  for (const key of KEYS) await aws.s3().send(new PutObjectCommand({ Bucket: 'fold', Key: key, Body: key }));
}

const names = (out: ListObjectsV2CommandOutput) => [...(out.CommonPrefixes ?? []).map((p) => p.Prefix), ...(out.Contents ?? []).map((o) => o.Key)];

describe('emulator: S3 ListObjectsV2', () => {
  it('rolls keys up at the Delimiter into CommonPrefixes, under a Prefix', async () => {
    await withEmulator({ history: false }, async (_e, aws) => {
      await fill(aws);
      const top = await aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold', Delimiter: '/' }));
      assert.deepEqual(top.CommonPrefixes?.map((p) => p.Prefix), ['runs/', 'wordle/']);
      assert.deepEqual(top.Contents?.map((o) => o.Key), ['a.jsonl', 'z.txt']);
      assert.equal(top.KeyCount, 4);
      assert.equal(top.Delimiter, '/');
      const runs = await aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold', Delimiter: '/', Prefix: 'runs/' }));
      assert.deepEqual(runs.CommonPrefixes?.map((p) => p.Prefix), ['runs/1/', 'runs/2/']);
      assert.deepEqual(runs.Contents?.map((o) => o.Key), ['runs/readme.md']);
      assert.equal(runs.Prefix, 'runs/');
      const flat = await aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold' }));
      assert.deepEqual(flat.Contents?.map((o) => o.Key), KEYS);
      assert.equal(flat.CommonPrefixes, undefined);
    });
  });

  it('pages with MaxKeys and continuation tokens, a common prefix counting as one entry and never repeated', async () => {
    await withEmulator({ history: false }, async (_e, aws) => {
      await fill(aws);
      const seen: (string | undefined)[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const out = await aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold', Delimiter: '/', MaxKeys: 1, ContinuationToken: token }));
        assert.equal(out.KeyCount, 1);
        assert.equal(out.ContinuationToken, token);
        seen.push(...names(out));
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
        pages++;
      } while (token);
      assert.deepEqual(seen, ['a.jsonl', 'runs/', 'wordle/', 'z.txt']);
      assert.equal(pages, 4);
    });
  });

  it('starts after StartAfter and rejects a broken continuation token or MaxKeys', async () => {
    await withEmulator({ history: false }, async (_e, aws) => {
      await fill(aws);
      const out = await aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold', StartAfter: 'runs/2/train.jsonl' }));
      assert.deepEqual(out.Contents?.map((o) => o.Key), ['runs/readme.md', 'wordle/train.jsonl', 'z.txt']);
      assert.equal(out.StartAfter, 'runs/2/train.jsonl');
      await assert.rejects(aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold', ContinuationToken: '%%' })), /continuation token/);
      await assert.rejects(aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold', MaxKeys: -1 })), /max-keys/);
    });
  });
});
