import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkUploaded, existingObject, folderEntries, uploadFile } from '../../../../src/services/datasets/objects';
import { collect, withEmulator } from '../../emulator/helpers';

// The upload command's S3 steps through the service (emulator, real SDK over HTTP): no key, a write, a refused second
// write, the read-back check.
describe('services/datasets/objects: what Upload Dataset to S3 asks of S3', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'mtrl-upload-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('says there is no object, writes one, refuses a second create-only write, and checks what arrived', async () => {
    const file = path.join(dir, 'train.jsonl');
    const body = '{"prompt": "hello"}\n';
    writeFileSync(file, body);
    const target = { bucket: 'mtrl-demo', key: 'uploads/train.jsonl' };
    const progress: number[] = [];
    await withEmulator({ history: false }, async (_emulator, aws) => {
      assert.equal(await existingObject(aws, target), undefined);
      const signal = new AbortController().signal;
      assert.equal(await uploadFile(aws, target, file, { createOnly: true, signal, onProgress: (n) => progress.push(n) }), 'written');
      assert.equal((await existingObject(aws, target))?.size, body.length);
      assert.equal(await uploadFile(aws, target, file, { createOnly: true, signal, onProgress: () => {} }), 'exists');
      const held = await checkUploaded(aws, target, file, body.length);
      assert.equal(held.heldBytes, body.length);
      assert.ok(held.etag && held.etag === held.expectedEtag, `the ETag ${held.etag} is the file's MD5 ${held.expectedEtag}`);
      assert.deepEqual(await checkUploaded(aws, target, file, body.length + 1), { heldBytes: body.length });
      const listed = await collect(folderEntries(aws, 'mtrl-demo', 'uploads/'));
      assert.deepEqual(listed, [{ kind: 'object', key: 'uploads/train.jsonl', size: body.length }]);
    });
    assert.equal(progress.at(-1), body.length);
  });
});
