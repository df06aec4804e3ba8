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

/** S3 REST-XML, path-style (`/<bucket>/<key>`): objects, ranges, listing and multipart uploads. */
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
  const max = Math.min(1000, Number(q.get('max-keys') ?? 1000));
  const after = q.get('continuation-token') ? Buffer.from(q.get('continuation-token') as string, 'base64').toString('utf8') : (q.get('start-after') ?? '');
  const keys = [...bucket.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
  const page = keys.slice(0, max);
  const truncated = keys.length > max;
  const contents = page.map((k) => {
    const o = bucket.get(k) as S3Object;
    return { Key: k, LastModified: new Date(o.lastModified), ETag: o.etag, Size: o.body.length, StorageClass: 'STANDARD' };
  });
  const xml = [
    toXml('Name', bucketName),
    toXml('Prefix', prefix),
    toXml('KeyCount', page.length),
    toXml('MaxKeys', max),
    toXml('IsTruncated', truncated),
    toXml('Contents', contents),
    truncated ? toXml('NextContinuationToken', Buffer.from(page[page.length - 1]).toString('base64')) : '',
  ].join('');
  sendXml(res, request, `<ListBucketResult xmlns="${NS}">${xml}</ListBucketResult>`);
}
