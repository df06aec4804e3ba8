import type { ServerResponse } from 'node:http';
import { sendXml, ServiceError, toXml, type EmulatorRequest } from './protocol';
import { bucketOf, NS, type Target } from './s3Objects';
import type { S3Object, World } from './world';

/** ListObjectsV2: keys after `StartAfter` or the continuation token, rolled up at `Delimiter` into `CommonPrefixes`, each counting toward `MaxKeys`. */
export function listObjects(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
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
export function deleteObjects(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
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
