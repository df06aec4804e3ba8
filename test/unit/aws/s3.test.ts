import assert from 'node:assert/strict';
import { isPreconditionFailed, listFolder, parentPrefix, upload, type FolderEntry } from '../../../src/aws/s3';
import { collect, withEmulator } from '../emulator/helpers';

describe('aws/s3: folder listing for Browse S3', () => {
  it('lists one level with Delimiter "/": sub-folders, then the objects directly in the folder, across pages', async () => {
    await withEmulator({ history: false }, async (emulator, aws) => {
      // Stored directly: 1,005 uploads over HTTP would only slow the test down.
      const bucket = emulator.world.buckets.get('mtrl-demo')!;
      for (let i = 0; i < 1005; i++)
        bucket.set(`many/run-${String(i).padStart(4, '0')}/train.jsonl`, { body: Buffer.from('{}'), lastModified: 0, etag: '"x"' });
      await upload(aws.s3(), { bucket: 'mtrl-demo', key: 'many/readme.jsonl' }, '{}');
      const before = emulator.requests.get('s3:GET') ?? 0;
      const top = await collect(listFolder(aws.s3(), 'mtrl-demo', ''));
      assert.deepEqual(top, [
        { kind: 'folder', prefix: 'eval-output/' },
        { kind: 'folder', prefix: 'many/' },
        { kind: 'folder', prefix: 'mlflow/' },
        { kind: 'folder', prefix: 'output/' },
        { kind: 'folder', prefix: 'refund/' },
        { kind: 'folder', prefix: 'wordle/' },
      ]);
      const many = await collect(listFolder(aws.s3(), 'mtrl-demo', 'many/'));
      assert.equal(many.filter((e) => e.kind === 'folder').length, 1005, 'every folder, over two pages of 1,000');
      assert.deepEqual(
        many.filter((e) => e.kind === 'object'),
        [{ kind: 'object', key: 'many/readme.jsonl', size: 2 }] satisfies FolderEntry[],
      );
      assert.equal(
        (emulator.requests.get('s3:GET') ?? 0) - before,
        3,
        'one request for the top, two pages for many/: not every key of the bucket',
      );
      const wordle = await collect(listFolder(aws.s3(), 'mtrl-demo', 'wordle/'));
      assert.deepEqual(
        wordle.map((e) => (e.kind === 'object' ? e.key : e.prefix)),
        ['wordle/train.jsonl', 'wordle/val.jsonl'],
      );
      assert.ok(wordle.every((e) => e.kind === 'object' && e.size > 0));
    });
  });

  it('goes up one folder', () => {
    assert.equal(parentPrefix('a/b/'), 'a/');
    assert.equal(parentPrefix('a/'), '');
    assert.equal(parentPrefix('a/b/train.jsonl'), 'a/b/');
    assert.equal(parentPrefix(''), '');
  });
});

describe('aws/s3: create-only upload (If-None-Match: *)', () => {
  it('writes a new key, and refuses an existing one with 412 PreconditionFailed, single part and multipart alike', async () => {
    await withEmulator({ history: false }, async (emulator, aws) => {
      const s3 = aws.s3();
      const small = { bucket: 'mtrl-demo', key: 'uploads/small.jsonl' };
      await upload(s3, small, '{"a": 1}\n', { createOnly: true });
      const error = await upload(s3, small, '{"b": 2}\n', { createOnly: true }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(isPreconditionFailed(error), `expected 412, got ${String(error)}`);
      assert.equal(emulator.world.buckets.get('mtrl-demo')!.get(small.key)!.body.toString(), '{"a": 1}\n');
      const big = { bucket: 'mtrl-demo', key: 'uploads/big.jsonl' };
      const body = Buffer.alloc(11 * 1024 * 1024, 'x');
      await upload(s3, big, body, { createOnly: true, partSize: 5 * 1024 * 1024 });
      const again = await upload(s3, big, Buffer.alloc(11 * 1024 * 1024, 'y'), { createOnly: true, partSize: 5 * 1024 * 1024 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(isPreconditionFailed(again), `expected 412 on CompleteMultipartUpload, got ${String(again)}`);
      assert.equal(emulator.world.buckets.get('mtrl-demo')!.get(big.key)!.body[0], 'x'.charCodeAt(0));
      await upload(s3, small, '{"c": 3}\n');
      assert.equal(
        emulator.world.buckets.get('mtrl-demo')!.get(small.key)!.body.toString(),
        '{"c": 3}\n',
        'without the condition it overwrites',
      );
    });
  });
});
