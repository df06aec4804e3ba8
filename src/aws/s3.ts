import type { S3Client, _Object } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { sdk } from './sdkLoader';
import { paginateItems } from './paginate';
import { readBoundedText, SlowAnswer, type HeldBytes } from './responseBody';
import { s3Uri, type S3Location } from '../core/s3/location';

// The address is pure (core/s3); the S3 layer's callers take it from here with the calls that use it.
export { parentPrefix, parseS3Uri, s3Uri, type S3Location } from '../core/s3/location';

interface UploadOptions {
  contentType?: string;
  /** Bytes sent so far and the total when known. */
  onProgress?: (loaded: number, total?: number) => void;
  signal?: AbortSignal;
  /** Multipart part size in bytes (minimum 5 MiB, the service's rule). */
  partSize?: number;
  /** Write only if the key does not exist (`If-None-Match: *` on PutObject and CompleteMultipartUpload): S3 answers 412 PreconditionFailed otherwise. */
  createOnly?: boolean;
}

/** True for S3's answer to a conditional write on a key that exists. */
export function isPreconditionFailed(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'PreconditionFailed' || e?.$metadata?.httpStatusCode === 412;
}

/** Uploads a body (multipart above one part), reporting progress; aborting the signal aborts the upload and its parts. */
export async function upload(
  client: S3Client,
  target: S3Location,
  body: Buffer | Uint8Array | string | Readable,
  options: UploadOptions = {},
): Promise<void> {
  const transfer = new (sdk().Upload)({
    client,
    params: {
      Bucket: target.bucket,
      Key: target.key,
      Body: body,
      ContentType: options.contentType,
      ...(options.createOnly ? { IfNoneMatch: '*' } : {}),
    },
    partSize: Math.max(options.partSize ?? 8 * 1024 * 1024, 5 * 1024 * 1024),
    queueSize: 4,
    leavePartsOnError: false,
  });
  if (options.onProgress) transfer.on('httpUploadProgress', (p) => options.onProgress?.(p.loaded ?? 0, p.total));
  const onAbort = () => void transfer.abort().catch(() => undefined);
  options.signal?.throwIfAborted();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await transfer.done();
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

interface ObjectHead {
  size: number;
  lastModified?: Date;
  contentType?: string;
  etag?: string;
}

export async function headObject(client: S3Client, location: S3Location, signal?: AbortSignal): Promise<ObjectHead> {
  const out = await client.send(new (sdk().HeadObjectCommand)({ Bucket: location.bucket, Key: location.key }), { abortSignal: signal });
  return { size: out.ContentLength ?? 0, lastModified: out.LastModified, contentType: out.ContentType, etag: out.ETag };
}

/** The object's bytes as chunks; `range` is an HTTP byte range such as `bytes=0-1023`. */
export async function* getObject(client: S3Client, location: S3Location, range?: string, signal?: AbortSignal): AsyncIterable<Uint8Array> {
  const out = await client.send(new (sdk().GetObjectCommand)({ Bucket: location.bucket, Key: location.key, Range: range }), {
    abortSignal: signal,
  });
  const body = out.Body as (Readable & AsyncIterable<Uint8Array>) | undefined;
  if (!body) return;
  try {
    for await (const chunk of body) yield chunk;
  } finally {
    body.destroy?.();
  }
}

/** An object read whole as text, within a byte cap and a time cap: past either, a sentence naming S3, the object and the limit. */
export async function getObjectText(
  client: S3Client,
  location: S3Location,
  limits: { bytes: number; seconds: number },
  signal?: AbortSignal,
  shared?: HeldBytes,
): Promise<string> {
  const what = `S3 GetObject ${s3Uri(location)}`;
  const timeout = AbortSignal.timeout(limits.seconds * 1000);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let body: (Readable & AsyncIterable<Uint8Array>) | undefined;
  try {
    const out = await client.send(new (sdk().GetObjectCommand)({ Bucket: location.bucket, Key: location.key }), { abortSignal: both });
    body = out.Body as typeof body;
  } catch (error) {
    if (timeout.aborted && !signal?.aborted) throw new SlowAnswer(what, undefined, limits.seconds);
    throw error;
  }
  if (!body) return '';
  // The SDK stops the body on its abort signal only before the headers: a stalled body is destroyed here.
  const stop = () => body.destroy(new Error('Request aborted'));
  both.addEventListener('abort', stop);
  try {
    return await readBoundedText(body, what, limits.bytes, { signal: timeout, seconds: limits.seconds }, shared);
  } finally {
    both.removeEventListener('abort', stop);
    body.destroy();
  }
}

/** An object read by byte ranges, for formats that need random access (Parquet): only the ranges asked for are fetched. */
export async function objectByRanges(
  client: S3Client,
  location: S3Location,
  signal?: AbortSignal,
): Promise<{ byteLength: number; slice(start: number, end?: number): Promise<ArrayBuffer> }> {
  const { size } = await headObject(client, location, signal);
  return {
    byteLength: size,
    async slice(start, end = size) {
      if (end <= start) return new ArrayBuffer(0);
      const parts: Uint8Array[] = [];
      for await (const chunk of getObject(client, location, `bytes=${start}-${end - 1}`, signal)) parts.push(chunk);
      const bytes = Buffer.concat(parts);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    },
  };
}

/** Pages of an S3 listing at most: 1,000 keys a page, so ten million keys. */
const LIST_PAGES = 10_000;

/** Objects under a prefix, page after page. */
export async function* listObjectsV2(client: S3Client, bucket: string, prefix?: string, signal?: AbortSignal): AsyncIterable<_Object> {
  yield* paginateItems(
    async (token, pageSignal) => {
      const page = await client.send(new (sdk().ListObjectsV2Command)({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }), {
        abortSignal: pageSignal,
      });
      return { items: page.Contents ?? [], next: page.IsTruncated ? page.NextContinuationToken : undefined };
    },
    { what: `S3 objects under s3://${bucket}/${prefix ?? ''}`, signal, maxPages: LIST_PAGES, maxItems: LIST_PAGES * 1000 },
  );
}

/** The most keys one DeleteObjects call takes (the service's limit). */
const DELETE_BATCH = 1000;

interface DeleteFailure {
  key: string;
  reason: string;
}

/** Deletes up to 1,000 keys in one call; S3 answers per key, so some may fail while the rest go. */
export async function deleteObjects(client: S3Client, bucket: string, keys: string[], signal?: AbortSignal): Promise<DeleteFailure[]> {
  if (keys.length > DELETE_BATCH) throw new RangeError(`DeleteObjects takes at most ${DELETE_BATCH} keys (got ${keys.length}).`);
  if (keys.length === 0) return [];
  const out = await client.send(
    new (sdk().DeleteObjectsCommand)({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
    { abortSignal: signal },
  );
  return (out.Errors ?? []).map((e) => ({ key: e.Key ?? '', reason: `${e.Code ?? 'Error'}: ${e.Message ?? 'not deleted'}` }));
}

/** One entry of a folder listing: a sub-folder (an S3 common prefix ending in "/") or an object directly in the folder. */
export type FolderEntry = { kind: 'folder'; prefix: string } | { kind: 'object'; key: string; size: number };

/** One level of a bucket under `prefix` (listed with Delimiter "/"), page after page: a bucket with many keys is not listed whole. */
export async function* listFolder(client: S3Client, bucket: string, prefix: string, signal?: AbortSignal): AsyncIterable<FolderEntry> {
  yield* paginateItems<FolderEntry>(
    async (token, pageSignal) => {
      const page = await client.send(
        new (sdk().ListObjectsV2Command)({ Bucket: bucket, Prefix: prefix || undefined, Delimiter: '/', ContinuationToken: token }),
        { abortSignal: pageSignal },
      );
      const items: FolderEntry[] = [];
      for (const p of page.CommonPrefixes ?? []) if (p.Prefix) items.push({ kind: 'folder', prefix: p.Prefix });
      for (const o of page.Contents ?? []) if (o.Key && o.Key !== prefix) items.push({ kind: 'object', key: o.Key, size: o.Size ?? 0 });
      return { items, next: page.IsTruncated ? page.NextContinuationToken : undefined };
    },
    { what: `the S3 folder s3://${bucket}/${prefix}`, signal, maxPages: LIST_PAGES, maxItems: LIST_PAGES * 1000 },
  );
}
