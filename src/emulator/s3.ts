import { createHash, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendXml, ServiceError, toXml, type EmulatorRequest } from './protocol';
import type { S3Object, World } from './world';

const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest();
const etagOf = (body: Buffer) => `"${md5(body).toString('hex')}"`;
/** S3's smallest part, except the last one of an upload. */
const MIN_PART_SIZE = 5 * 1024 * 1024;

/** `x-amz-meta-*` headers as S3 stores them: lower-case names, values as sent. */
function userMetadata(headers: EmulatorRequest['headers']): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => name.startsWith('x-amz-meta-'))
      .map(([name, value]) => [name, String(value)]),
  );
}

/** The multipart ETag: MD5 of the concatenated binary MD5s of the parts, then "-<parts>". */
/** S3's conditional write: `If-None-Match: *` fails with 412 when the key exists, so "create, never overwrite" is one atomic step. */
function refuseOverwrite(request: EmulatorRequest, exists: boolean): void {
  if (exists && request.headers['if-none-match'] === '*') {
    throw new ServiceError('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412);
  }
}

function multipartEtag(parts: Buffer[]): string {
  return `"${md5(Buffer.concat(parts.map(md5))).toString('hex')}-${parts.length}"`;
}

function bucketOf(world: World, name: string): Map<string, S3Object> {
  const bucket = world.buckets.get(name);
  if (!bucket) throw new ServiceError('NoSuchBucket', `The specified bucket does not exist: ${name}`, 404);
  return bucket;
}

/** The bucket and key a path-style request names (`/<bucket>/<key>`); either may be empty. */
interface Target {
  bucketName: string;
  key: string;
}
type Handler = (world: World, request: EmulatorRequest, res: ServerResponse, target: Target) => void;
type MultipartUpload = NonNullable<ReturnType<World['multipart']['get']>>;

function listBuckets(world: World, request: EmulatorRequest, res: ServerResponse): void {
  const created = new Date(world.clock.now());
  const buckets = [...world.buckets.keys()].map((Name) => ({ Name, CreationDate: created }));
  sendXml(res, request, `<ListAllMyBucketsResult xmlns="${NS}">${toXml('Buckets', { Bucket: buckets })}</ListAllMyBucketsResult>`);
}

function createBucket(world: World, _request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
  if (!world.buckets.has(bucketName)) world.buckets.set(bucketName, new Map());
  res.writeHead(200, { location: `/${bucketName}` });
  res.end();
}

function headBucket(world: World, _request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
  bucketOf(world, bucketName);
  res.writeHead(200).end();
}

function createMultipartUpload(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName, key }: Target): void {
  bucketOf(world, bucketName);
  const id = randomUUID();
  world.multipart.set(id, {
    bucket: bucketName,
    key,
    contentType: request.headers['content-type'],
    metadata: userMetadata(request.headers),
    parts: new Map(),
  });
  sendXml(
    res,
    request,
    `<InitiateMultipartUploadResult xmlns="${NS}">${toXml('Bucket', bucketName)}${toXml('Key', key)}${toXml('UploadId', id)}</InitiateMultipartUploadResult>`,
  );
}

function uploadOf(world: World, request: EmulatorRequest, bucketName: string): MultipartUpload {
  bucketOf(world, bucketName);
  const upload = world.multipart.get(request.query.get('uploadId') ?? '');
  if (!upload)
    throw new ServiceError(
      'NoSuchUpload',
      'The specified multipart upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
      404,
    );
  return upload;
}

function uploadPart(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
  uploadOf(world, request, bucketName).parts.set(Number(request.query.get('partNumber')), request.body);
  res.writeHead(200, { etag: etagOf(request.body) });
  res.end();
}

function abortMultipartUpload(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
  uploadOf(world, request, bucketName);
  world.multipart.delete(request.query.get('uploadId') ?? '');
  res.writeHead(204).end();
}

function completeMultipartUpload(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName, key }: Target): void {
  const bucket = bucketOf(world, bucketName);
  const upload = uploadOf(world, request, bucketName);
  const listed = [...request.body.toString('utf8').matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
    number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1])?.[1]),
    etag: /<ETag>([^<]*)<\/ETag>/.exec(m[1])?.[1].replace(/&quot;/g, '"'),
  }));
  if (listed.length === 0)
    throw new ServiceError('MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.');
  const parts = listed.map(({ number, etag }, i) => {
    const part = upload.parts.get(number);
    if (!part || (etag !== undefined && etag.replace(/"/g, '') !== etagOf(part).replace(/"/g, ''))) {
      throw new ServiceError(
        'InvalidPart',
        `One or more of the specified parts could not be found (part ${number}). The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.`,
      );
    }
    if (i > 0 && number <= listed[i - 1].number)
      throw new ServiceError('InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.');
    return part;
  });
  const small = parts.findIndex((part, i) => i < parts.length - 1 && part.length < MIN_PART_SIZE);
  if (small >= 0)
    throw new ServiceError(
      'EntityTooSmall',
      `Your proposed upload is smaller than the minimum allowed object size: part ${listed[small].number} has ${parts[small].length} bytes; every part but the last needs at least ${MIN_PART_SIZE}.`,
    );
  const etag = multipartEtag(parts);
  refuseOverwrite(request, bucket.has(key));
  const now = world.clock.now();
  bucket.set(key, { body: Buffer.concat(parts), contentType: upload.contentType, metadata: upload.metadata, lastModified: now, etag });
  world.multipart.delete(request.query.get('uploadId') ?? '');
  sendXml(
    res,
    request,
    `<CompleteMultipartUploadResult xmlns="${NS}">${toXml('Location', `/${bucketName}/${key}`)}${toXml('Bucket', bucketName)}${toXml('Key', key)}${toXml('ETag', etag)}</CompleteMultipartUploadResult>`,
  );
}

function putObject(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName, key }: Target): void {
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

function deleteObject(world: World, _request: EmulatorRequest, res: ServerResponse, { bucketName, key }: Target): void {
  bucketOf(world, bucketName).delete(key);
  res.writeHead(204).end();
}

/** GetObject and HeadObject: the object with its metadata headers, whole or one `Range` (206). */
function getObject(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName, key }: Target): void {
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

/** S3 REST-XML, path-style: each operation by method, on the service, a bucket or an object, and a query parameter it carries (first match wins). */
const ROUTES: { operation: string; method: string; on: 'service' | 'bucket' | 'object'; query?: string; handle: Handler }[] = [
  { operation: 'ListBuckets', method: 'GET', on: 'service', handle: listBuckets },
  { operation: 'CreateBucket', method: 'PUT', on: 'bucket', handle: createBucket },
  { operation: 'HeadBucket', method: 'HEAD', on: 'bucket', handle: headBucket },
  { operation: 'DeleteObjects', method: 'POST', on: 'bucket', query: 'delete', handle: deleteObjects },
  { operation: 'ListObjectsV2', method: 'GET', on: 'bucket', query: 'list-type', handle: listObjects },
  { operation: 'CreateMultipartUpload', method: 'POST', on: 'object', query: 'uploads', handle: createMultipartUpload },
  { operation: 'UploadPart', method: 'PUT', on: 'object', query: 'uploadId', handle: uploadPart },
  { operation: 'CompleteMultipartUpload', method: 'POST', on: 'object', query: 'uploadId', handle: completeMultipartUpload },
  { operation: 'AbortMultipartUpload', method: 'DELETE', on: 'object', query: 'uploadId', handle: abortMultipartUpload },
  { operation: 'PutObject', method: 'PUT', on: 'object', handle: putObject },
  { operation: 'DeleteObject', method: 'DELETE', on: 'object', handle: deleteObject },
  { operation: 'GetObject', method: 'GET', on: 'object', handle: getObject },
  { operation: 'HeadObject', method: 'HEAD', on: 'object', handle: getObject },
];

/** Every S3 operation served: the routing itself, so the service-model test drives each one. */
export const S3_OPERATIONS: readonly string[] = ROUTES.map((r) => r.operation);

export function s3(world: World, request: EmulatorRequest, res: ServerResponse): void {
  const [, bucketName = '', ...rest] = request.path.split('/');
  const target = { bucketName, key: rest.join('/') };
  const on = !bucketName ? 'service' : !target.key ? 'bucket' : 'object';
  const route = ROUTES.find((r) => r.method === request.method && r.on === on && (!r.query || request.query.has(r.query)));
  // A copy (CopyObject, UploadPartCopy) is a PUT without a body: storing it as PutObject would write an empty object.
  if (!route || request.headers['x-amz-copy-source'] !== undefined)
    throw new ServiceError(
      'NotImplemented',
      `The emulator does not implement S3 ${request.method} ${request.path}${request.query.size ? `?${request.query.toString()}` : ''}${request.headers['x-amz-copy-source'] === undefined ? '' : ' (a copy)'}.`,
      501,
    );
  route.handle(world, request, res, target);
}

/** ListObjectsV2: keys after `StartAfter` or the continuation token, rolled up at `Delimiter` into `CommonPrefixes`, each counting toward `MaxKeys`. */
function listObjects(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
  const bucket = bucketOf(world, bucketName);
  const q = request.query;
  const prefix = q.get('prefix') ?? '';
  const delimiter = q.get('delimiter') ?? '';
  const maxKeys = q.get('max-keys');
  const max = maxKeys === null ? 1000 : Number(maxKeys);
  if (!Number.isInteger(max) || max < 0)
    throw new ServiceError('InvalidArgument', 'Provided max-keys not an integer or within integer range');
  const token = q.get('continuation-token');
  const startAfter = q.get('start-after') ?? '';
  const after = token !== null ? decodeToken(token) : startAfter;
  const entries: { key?: string; prefix?: string }[] = [];
  for (const key of [...bucket.keys()].sort()) {
    if (!key.startsWith(prefix) || key <= after) continue;
    const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    if (cut < 0) entries.push({ key });
    else {
      const common = key.slice(0, cut + delimiter.length);
      // A page that ended on a common prefix resumes after all its keys.
      if (common === after || entries.at(-1)?.prefix === common) continue;
      entries.push({ prefix: common });
    }
  }
  const limit = Math.min(1000, max);
  const page = entries.slice(0, limit);
  const truncated = limit > 0 && entries.length > limit;
  const contents = page
    .filter((e) => e.key !== undefined)
    .map(({ key }) => {
      const o = bucket.get(key as string) as S3Object;
      return { Key: key, LastModified: new Date(o.lastModified), ETag: o.etag, Size: o.body.length, StorageClass: 'STANDARD' };
    });
  const last = page.at(-1);
  const xml = [
    toXml('Name', bucketName),
    toXml('Prefix', prefix),
    delimiter ? toXml('Delimiter', delimiter) : '',
    toXml('MaxKeys', max),
    toXml('KeyCount', page.length),
    toXml('IsTruncated', truncated),
    toXml('Contents', contents),
    toXml(
      'CommonPrefixes',
      page.filter((e) => e.prefix !== undefined).map((e) => ({ Prefix: e.prefix })),
    ),
    token !== null ? toXml('ContinuationToken', token) : '',
    truncated && last ? toXml('NextContinuationToken', Buffer.from(last.key ?? last.prefix ?? '').toString('base64')) : '',
    q.has('start-after') ? toXml('StartAfter', startAfter) : '',
  ].join('');
  sendXml(res, request, `<ListBucketResult xmlns="${NS}">${xml}</ListBucketResult>`);
}

function decodeToken(token: string): string {
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  if (!token || Buffer.from(decoded).toString('base64') !== token)
    throw new ServiceError('InvalidArgument', 'The continuation token provided is incorrect');
  return decoded;
}

const unescapeXml = (text: string) =>
  text.replace(/&(lt|gt|amp|apos|quot);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' })[e] ?? '');

/** DeleteObjects (POST /<bucket>?delete): at most 1,000 keys a call; each key succeeds or fails on its own, as S3 answers. */
function deleteObjects(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
  const bucket = bucketOf(world, bucketName);
  const body = request.body.toString('utf8');
  const keys = [...body.matchAll(/<Object>\s*<Key>([\s\S]*?)<\/Key>/g)].map((m) => unescapeXml(m[1]));
  if (keys.length === 0 || keys.length > 1000)
    throw new ServiceError(
      'MalformedXML',
      `The XML you provided was not well-formed or did not validate against our published schema: DeleteObjects takes 1 to 1000 keys (got ${keys.length}).`,
    );
  const quiet = /<Quiet>true<\/Quiet>/.test(body);
  const results = keys.map((Key) => {
    if (world.undeletableKeys.has(`${bucketName}/${Key}`)) return toXml('Error', { Key, Code: 'AccessDenied', Message: 'Access Denied' });
    bucket.delete(Key);
    return quiet ? '' : toXml('Deleted', { Key });
  });
  sendXml(res, request, `<DeleteResult xmlns="${NS}">${results.join('')}</DeleteResult>`);
}
