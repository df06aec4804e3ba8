import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendXml, ServiceError, toXml, type EmulatorRequest } from './protocol';
import type { S3Object, World } from './world';

/** The S3 XML namespace every answer declares. */
export const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
export const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest();
export const etagOf = (body: Buffer) => `"${md5(body).toString('hex')}"`;

/** `x-amz-meta-*` headers as S3 stores them: lower-case names, values as sent. */
export function userMetadata(headers: EmulatorRequest['headers']): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => name.startsWith('x-amz-meta-'))
      .map(([name, value]) => [name, String(value)]),
  );
}

/** S3's conditional write: `If-None-Match: *` fails with 412 when the key exists, so "create, never overwrite" is one atomic step. */
export function refuseOverwrite(request: EmulatorRequest, exists: boolean): void {
  if (exists && request.headers['if-none-match'] === '*') {
    throw new ServiceError('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412);
  }
}

export function bucketOf(world: World, name: string): Map<string, S3Object> {
  const bucket = world.buckets.get(name);
  if (!bucket) throw new ServiceError('NoSuchBucket', `The specified bucket does not exist: ${name}`, 404);
  return bucket;
}

/** The bucket and key a path-style request names (`/<bucket>/<key>`); either may be empty. */
export interface Target {
  bucketName: string;
  key: string;
}
export type Handler = (world: World, request: EmulatorRequest, res: ServerResponse, target: Target) => void;

export function listBuckets(world: World, request: EmulatorRequest, res: ServerResponse): void {
  const created = new Date(world.clock.now());
  const buckets = [...world.buckets.keys()].map((Name) => ({ Name, CreationDate: created }));
  sendXml(res, request, `<ListAllMyBucketsResult xmlns="${NS}">${toXml('Buckets', { Bucket: buckets })}</ListAllMyBucketsResult>`);
}

export function createBucket(world: World, _request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
  if (!world.buckets.has(bucketName)) world.buckets.set(bucketName, new Map());
  res.writeHead(200, { location: `/${bucketName}` });
  res.end();
}

export function headBucket(world: World, _request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
  bucketOf(world, bucketName);
  res.writeHead(200).end();
}

export function putObject(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName, key }: Target): void {
  const bucket = bucketOf(world, bucketName);
  refuseOverwrite(request, bucket.has(key));
  const object: S3Object = {
    body: request.body,
    contentType: request.headers['content-type'],
    metadata: userMetadata(request.headers),
    lastModified: world.clock.now(),
    etag: etagOf(request.body),
  };
  bucket.set(key, object);
  res.writeHead(200, { etag: object.etag });
  res.end();
}

export function deleteObject(world: World, _request: EmulatorRequest, res: ServerResponse, { bucketName, key }: Target): void {
  bucketOf(world, bucketName).delete(key);
  res.writeHead(204).end();
}

/** GetObject and HeadObject: the object with its metadata headers, whole or one `Range` (206). */
export function getObject(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName, key }: Target): void {
  const object = bucketOf(world, bucketName).get(key);
  if (!object) throw new ServiceError(request.method === 'HEAD' ? 'NotFound' : 'NoSuchKey', 'The specified key does not exist.', 404);
  const headers: Record<string, string | number> = {
    'content-type': object.contentType ?? 'application/octet-stream',
    'last-modified': new Date(object.lastModified).toUTCString(),
    etag: object.etag,
    'accept-ranges': 'bytes',
    ...object.metadata,
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
