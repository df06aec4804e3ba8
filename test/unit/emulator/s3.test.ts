import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetBucketLocationCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import type { AwsClients } from '../../../src/aws/clients';
import { upload } from '../../../src/aws/s3';
import { withEmulator } from './helpers';

const KEYS = ['a.jsonl', 'runs/1/train.jsonl', 'runs/1/val.jsonl', 'runs/2/train.jsonl', 'runs/readme.md', 'wordle/train.jsonl', 'z.txt'];

/** A bucket `fold` holding KEYS, each object's body its key. */
async function fill(aws: AwsClients): Promise<void> {
  await aws.s3().send(new CreateBucketCommand({ Bucket: 'fold' }));
  for (const key of KEYS) await aws.s3().send(new PutObjectCommand({ Bucket: 'fold', Key: key, Body: key }));
}

const names = (out: ListObjectsV2CommandOutput) => [
  ...(out.CommonPrefixes ?? []).map((p) => p.Prefix),
  ...(out.Contents ?? []).map((o) => o.Key),
];

describe('emulator: S3 ListObjectsV2', () => {
  it('rolls keys up at the Delimiter into CommonPrefixes, under a Prefix', async () => {
    await withEmulator({ history: false }, async (_e, aws) => {
      await fill(aws);
      const top = await aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold', Delimiter: '/' }));
      assert.deepEqual(
        top.CommonPrefixes?.map((p) => p.Prefix),
        ['runs/', 'wordle/'],
      );
      assert.deepEqual(
        top.Contents?.map((o) => o.Key),
        ['a.jsonl', 'z.txt'],
      );
      assert.equal(top.KeyCount, 4);
      assert.equal(top.Delimiter, '/');
      const runs = await aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold', Delimiter: '/', Prefix: 'runs/' }));
      assert.deepEqual(
        runs.CommonPrefixes?.map((p) => p.Prefix),
        ['runs/1/', 'runs/2/'],
      );
      assert.deepEqual(
        runs.Contents?.map((o) => o.Key),
        ['runs/readme.md'],
      );
      assert.equal(runs.Prefix, 'runs/');
      const flat = await aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold' }));
      assert.deepEqual(
        flat.Contents?.map((o) => o.Key),
        KEYS,
      );
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
      assert.deepEqual(
        out.Contents?.map((o) => o.Key),
        ['runs/readme.md', 'wordle/train.jsonl', 'z.txt'],
      );
      assert.equal(out.StartAfter, 'runs/2/train.jsonl');
      await assert.rejects(aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold', ContinuationToken: '%%' })), /continuation token/);
      await assert.rejects(aws.s3().send(new ListObjectsV2Command({ Bucket: 'fold', MaxKeys: -1 })), /max-keys/);
    });
  });

  it('answers a request no route names (ListObjects v1, GetBucketLocation, CopyObject) with NotImplemented, not with a v2 listing or an empty object', async () => {
    await withEmulator({ history: false }, async (_e, aws) => {
      await fill(aws);
      const notImplemented = (e: Error) => e.name === 'NotImplemented' && /does not implement S3 GET \/fold\b/.test(e.message);
      await assert.rejects(aws.s3().send(new ListObjectsCommand({ Bucket: 'fold' })), notImplemented);
      await assert.rejects(aws.s3().send(new GetBucketLocationCommand({ Bucket: 'fold' })), notImplemented);
      await assert.rejects(
        aws.s3().send(new CopyObjectCommand({ Bucket: 'fold', Key: 'copy.jsonl', CopySource: 'fold/a.jsonl' })),
        (e: Error) => e.name === 'NotImplemented' && /does not implement S3 PUT \/fold\/copy\.jsonl\b.* \(a copy\)/.test(e.message),
      );
      await assert.rejects(aws.s3().send(new HeadObjectCommand({ Bucket: 'fold', Key: 'copy.jsonl' })), /NotFound/);
    });
  });
});

const MiB = 1024 * 1024;
const md5 = (b: Buffer) => createHash('md5').update(b).digest();

describe('emulator: S3 objects and multipart uploads', () => {
  it("gives a multipart object S3's ETag: MD5 of the parts' binary MD5s, then -N", async () => {
    await withEmulator({ history: false }, async (_e, aws) => {
      const body = Buffer.alloc(11 * MiB, 'wordle\n');
      await upload(aws.s3(), { bucket: 'mtrl-demo', key: 'big.jsonl' }, body, { partSize: 5 * MiB });
      const parts = [body.subarray(0, 5 * MiB), body.subarray(5 * MiB, 10 * MiB), body.subarray(10 * MiB)];
      const expected = `"${createHash('md5')
        .update(Buffer.concat(parts.map(md5)))
        .digest('hex')}-3"`;
      const head = await aws.s3().send(new HeadObjectCommand({ Bucket: 'mtrl-demo', Key: 'big.jsonl' }));
      assert.equal(head.ETag, expected);
      assert.notEqual(head.ETag, `"${md5(body).toString('hex')}-3"`, 'not the MD5 of the whole object');
      assert.equal(head.ContentLength, body.length);
      // The product's default part size (8 MiB) passes CompleteMultipartUpload's 5 MiB minimum.
      const large = Buffer.alloc(17 * MiB, 'crane\n');
      await upload(aws.s3(), { bucket: 'mtrl-demo', key: 'default-parts.jsonl' }, large);
      const defaults = [large.subarray(0, 8 * MiB), large.subarray(8 * MiB, 16 * MiB), large.subarray(16 * MiB)];
      const big = await aws.s3().send(new HeadObjectCommand({ Bucket: 'mtrl-demo', Key: 'default-parts.jsonl' }));
      assert.equal(
        big.ETag,
        `"${createHash('md5')
          .update(Buffer.concat(defaults.map(md5)))
          .digest('hex')}-3"`,
      );
    });
  });

  it('stores x-amz-meta-* user metadata and returns it from HeadObject and GetObject, multipart included', async () => {
    await withEmulator({ history: false }, async (_e, aws) => {
      await aws
        .s3()
        .send(new PutObjectCommand({ Bucket: 'mtrl-demo', Key: 'm.jsonl', Body: '{}', Metadata: { purpose: 'train', rows: '640' } }));
      const head = await aws.s3().send(new HeadObjectCommand({ Bucket: 'mtrl-demo', Key: 'm.jsonl' }));
      assert.deepEqual(head.Metadata, { purpose: 'train', rows: '640' });
      const got = await aws.s3().send(new GetObjectCommand({ Bucket: 'mtrl-demo', Key: 'm.jsonl' }));
      assert.deepEqual(got.Metadata, { purpose: 'train', rows: '640' });
      await got.Body?.transformToString();
      const { UploadId } = await aws
        .s3()
        .send(new CreateMultipartUploadCommand({ Bucket: 'mtrl-demo', Key: 'mp.jsonl', Metadata: { source: 'wizard' } }));
      const part = await aws
        .s3()
        .send(new UploadPartCommand({ Bucket: 'mtrl-demo', Key: 'mp.jsonl', UploadId, PartNumber: 1, Body: 'one part' }));
      await aws.s3().send(
        new CompleteMultipartUploadCommand({
          Bucket: 'mtrl-demo',
          Key: 'mp.jsonl',
          UploadId,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
        }),
      );
      assert.deepEqual((await aws.s3().send(new HeadObjectCommand({ Bucket: 'mtrl-demo', Key: 'mp.jsonl' }))).Metadata, {
        source: 'wizard',
      });
    });
  });

  it('rejects a non-last part under 5 MiB with EntityTooSmall at CompleteMultipartUpload, and a wrong part ETag with InvalidPart', async () => {
    await withEmulator({ history: false }, async (_e, aws) => {
      const target = { Bucket: 'mtrl-demo', Key: 'small-parts.jsonl' };
      const { UploadId } = await aws.s3().send(new CreateMultipartUploadCommand(target));
      const one = await aws.s3().send(new UploadPartCommand({ ...target, UploadId, PartNumber: 1, Body: '0123456789' }));
      const two = await aws.s3().send(new UploadPartCommand({ ...target, UploadId, PartNumber: 2, Body: 'last' }));
      const complete = (parts: { PartNumber: number; ETag?: string }[]) =>
        aws.s3().send(new CompleteMultipartUploadCommand({ ...target, UploadId, MultipartUpload: { Parts: parts } }));
      await assert.rejects(
        complete([
          { PartNumber: 1, ETag: one.ETag },
          { PartNumber: 2, ETag: '"0000"' },
        ]),
        { name: 'InvalidPart' },
      );
      await assert.rejects(
        complete([
          { PartNumber: 1, ETag: one.ETag },
          { PartNumber: 2, ETag: two.ETag },
        ]),
        (e: Error) => e.name === 'EntityTooSmall' && /part 1 has 10 bytes/.test(e.message),
      );
      await assert.rejects(aws.s3().send(new HeadObjectCommand(target)), { name: 'NotFound' });
      // A single small part is the last part: allowed.
      const out = await complete([{ PartNumber: 2, ETag: two.ETag }]);
      assert.match(out.ETag ?? '', /-1"$/);
    });
  });
});

describe('emulator: S3 latency per GET', () => {
  it('answers each S3 GET (an object, a listing) after the latency asked, so a reader of many objects is measured', async () => {
    await withEmulator({ history: false, s3GetLatencyMs: 300 }, async (_emulator, aws) => {
      const s3 = aws.s3();
      await s3.send(new CreateBucketCommand({ Bucket: 'far' }));
      await s3.send(new PutObjectCommand({ Bucket: 'far', Key: 'traces.json', Body: '{}' }));
      for (const get of [
        () => s3.send(new GetObjectCommand({ Bucket: 'far', Key: 'traces.json' })),
        () => s3.send(new ListObjectsV2Command({ Bucket: 'far' })),
      ]) {
        const start = performance.now();
        await get();
        assert.ok(performance.now() - start >= 290, 'a GET waits the latency');
      }
    });
  });
});
