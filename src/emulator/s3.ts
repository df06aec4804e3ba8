import { createHash, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendXml, ServiceError, toXml, type EmulatorRequest } from './protocol';
import type { S3Object, World } from './world';

const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const etagOf = (body: Buffer) => `"${createHash('md5').update(body).digest('hex')}"`;

function bucketOf(world: World, name: string): Map<string, S3Object> {
  const bucket = world.buckets.get(name);
  if (!bucket) throw new ServiceError('NoSuchBucket', `The specified bucket does not exist: ${name}`, 404);
  return bucket;
}

/** S3 REST-XML, path-style (`/<bucket>/<key>`): objects, ranges, listing (with a delimiter), batch deletes and multipart uploads. */
export function s3(world: World, request: EmulatorRequest, res: ServerResponse): void {
  const [, bucketName = '', ...rest] = request.path.split('/');
  const key = rest.join('/');
  const q = request.query;
  const now = world.clock.now();
  if (!bucketName) {
    const buckets = [...world.buckets.keys()].map((Name) => ({ Name, CreationDate: new Date(now) }));
    return sendXml(res, request, `<ListAllMyBucketsResult xmlns="${NS}">${toXml('Buckets', { Bucket: buckets })}</ListAllMyBucketsResult>`);
  }
  if (!key) {
    if (request.method === 'PUT') {
      if (!world.buckets.has(bucketName)) world.buckets.set(bucketName, new Map());
      res.writeHead(200, { location: `/${bucketName}` });
      return void res.end();
    }
    const bucket = bucketOf(world, bucketName);
    if (request.method === 'HEAD') return void res.writeHead(200).end();
    if (request.method === 'POST' && q.has('delete')) return deleteObjects(world, bucketName, bucket, request, res);
    return listObjects(bucketName, bucket, request, res);
  }
  const bucket = bucketOf(world, bucketName);
  const uploadId = q.get('uploadId');
  if (request.method === 'POST' && q.has('uploads')) {
    const id = randomUUID();
    world.multipart.set(id, { bucket: bucketName, key, contentType: request.headers['content-type'], parts: new Map() });
    return sendXml(res, request, `<InitiateMultipartUploadResult xmlns="${NS}">${toXml('Bucket', bucketName)}${toXml('Key', key)}${toXml('UploadId', id)}</InitiateMultipartUploadResult>`);
  }
  if (uploadId !== null) {
    const upload = world.multipart.get(uploadId);
    if (!upload) throw new ServiceError('NoSuchUpload', 'The specified multipart upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.', 404);
    if (request.method === 'PUT') {
      upload.parts.set(Number(q.get('partNumber')), request.body);
      res.writeHead(200, { etag: etagOf(request.body) });
      return void res.end();
    }
    if (request.method === 'DELETE') {
      world.multipart.delete(uploadId);
      return void res.writeHead(204).end();
    }
    if (request.method === 'POST') {
      const numbers = [...request.body.toString('utf8').matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
      const missing = numbers.find((n) => !upload.parts.has(n));
      if (missing !== undefined) throw new ServiceError('InvalidPart', `Part ${missing} was not uploaded.`);
      const body = Buffer.concat(numbers.map((n) => upload.parts.get(n) as Buffer));
      const etag = `"${createHash('md5').update(body).digest('hex')}-${numbers.length}"`;
      bucket.set(key, { body, contentType: upload.contentType, lastModified: now, etag });
      world.multipart.delete(uploadId);
      return sendXml(res, request, `<CompleteMultipartUploadResult xmlns="${NS}">${toXml('Location', `/${bucketName}/${key}`)}${toXml('Bucket', bucketName)}${toXml('Key', key)}${toXml('ETag', etag)}</CompleteMultipartUploadResult>`);
    }
  }
  if (request.method === 'PUT') {
    const object: S3Object = { body: request.body, contentType: request.headers['content-type'], lastModified: now, etag: etagOf(request.body) };
    bucket.set(key, object);
    res.writeHead(200, { etag: object.etag });
    return void res.end();
  }
  if (request.method === 'DELETE') {
    bucket.delete(key);
    return void res.writeHead(204).end();
  }
  const object = bucket.get(key);
  if (!object) throw new ServiceError(request.method === 'HEAD' ? 'NotFound' : 'NoSuchKey', 'The specified key does not exist.', 404);
  const headers: Record<string, string | number> = {
    'content-type': object.contentType ?? 'application/octet-stream',
    'last-modified': new Date(object.lastModified).toUTCString(),
    etag: object.etag,
    'accept-ranges': 'bytes',
  };
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(request.headers.range ?? ''));
  let body = object.body;
  let status = 200;
  if (range) {
    const size = object.body.length;
    const start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1]);
    const end = range[1] !== '' && range[2] !== '' ? Math.min(size - 1, Number(range[2])) : size - 1;
    if (start >= size || start > end) throw new ServiceError('InvalidRange', 'The requested range is not satisfiable', 416);
    body = object.body.subarray(start, end + 1);
    headers['content-range'] = `bytes ${start}-${end}/${size}`;
    status = 206;
  }
  headers['content-length'] = body.length;
  res.writeHead(status, headers);
  res.end(request.method === 'HEAD' ? undefined : body);
}

function listObjects(bucketName: string, bucket: Map<string, S3Object>, request: EmulatorRequest, res: ServerResponse): void {
  const q = request.query;
  const prefix = q.get('prefix') ?? '';
  const delimiter = q.get('delimiter') ?? '';
  const max = Math.min(1000, Number(q.get('max-keys') ?? 1000));
  const after = q.get('continuation-token') ? Buffer.from(q.get('continuation-token') as string, 'base64').toString('utf8') : (q.get('start-after') ?? '');
  // With a delimiter, keys that go deeper than the prefix fold into one common prefix each; paging runs over keys and prefixes alike.
  const entries = new Set<string>();
  const prefixes = new Set<string>();
  for (const k of bucket.keys()) {
    if (!k.startsWith(prefix)) continue;
    const cut = delimiter ? k.indexOf(delimiter, prefix.length) : -1;
    if (cut >= 0) prefixes.add(k.slice(0, cut + delimiter.length));
    entries.add(cut < 0 ? k : k.slice(0, cut + delimiter.length));
  }
  const sorted = [...entries].filter((e) => e > after).sort();
  const page = sorted.slice(0, max);
  const truncated = sorted.length > max;
  const isPrefix = (e: string) => prefixes.has(e);
  const contents = page.filter((e) => !isPrefix(e)).map((k) => {
    const o = bucket.get(k) as S3Object;
    return { Key: k, LastModified: new Date(o.lastModified), ETag: o.etag, Size: o.body.length, StorageClass: 'STANDARD' };
  });
  const xml = [
    toXml('Name', bucketName),
    toXml('Prefix', prefix),
    delimiter ? toXml('Delimiter', delimiter) : '',
    toXml('KeyCount', page.length),
    toXml('MaxKeys', max),
    toXml('IsTruncated', truncated),
    toXml('Contents', contents),
    toXml('CommonPrefixes', page.filter(isPrefix).map((Prefix) => ({ Prefix }))),
    truncated ? toXml('NextContinuationToken', Buffer.from(page[page.length - 1]).toString('base64')) : '',
  ].join('');
  sendXml(res, request, `<ListBucketResult xmlns="${NS}">${xml}</ListBucketResult>`);
}

const unescapeXml = (text: string) => text.replace(/&(lt|gt|amp|apos|quot);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' })[e] ?? '');

/** DeleteObjects (POST /<bucket>?delete): at most 1,000 keys a call; each key succeeds or fails on its own, as S3 answers. */
function deleteObjects(world: World, bucketName: string, bucket: Map<string, S3Object>, request: EmulatorRequest, res: ServerResponse): void {
  const body = request.body.toString('utf8');
  const keys = [...body.matchAll(/<Object>\s*<Key>([\s\S]*?)<\/Key>/g)].map((m) => unescapeXml(m[1]));
  if (keys.length === 0 || keys.length > 1000) throw new ServiceError('MalformedXML', `The XML you provided was not well-formed or did not validate against our published schema: DeleteObjects takes 1 to 1000 keys (got ${keys.length}).`);
  const quiet = /<Quiet>true<\/Quiet>/.test(body);
  const results = keys.map((Key) => {
    if (world.undeletableKeys.has(`${bucketName}/${Key}`)) return toXml('Error', { Key, Code: 'AccessDenied', Message: 'Access Denied' });
    bucket.delete(Key);
    return quiet ? '' : toXml('Deleted', { Key });
  });
  sendXml(res, request, `<DeleteResult xmlns="${NS}">${results.join('')}</DeleteResult>`);
}
