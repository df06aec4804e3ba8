import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { AwsClients } from '../../aws/clients';
import { headObject, isPreconditionFailed, listFolder, upload, type FolderEntry } from '../../aws/s3';
import type { S3Location } from '../../core/s3/location';

// The S3 side of a dataset for the editor: browse a folder, see what a key holds, upload a file, check what arrived.

const PART_SIZE = 8 * 1024 * 1024;

/** One level of a bucket under `prefix`, page after page. */
export function folderEntries(aws: AwsClients, bucket: string, prefix: string, signal?: AbortSignal): AsyncIterable<FolderEntry> {
  return listFolder(aws.s3(), bucket, prefix, signal);
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** The object at the key (size, modified), or undefined when there is none; any other failure is thrown. */
export async function existingObject(aws: AwsClients, target: S3Location): Promise<{ size: number; lastModified?: Date } | undefined> {
  try {
    return await headObject(aws.s3(), target);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

interface UploadFileOptions {
  /** Write only if the key does not exist yet. */
  createOnly: boolean;
  signal: AbortSignal;
  onProgress: (loaded: number) => void;
}

/** Uploads a local file in parts; 'exists' when `createOnly` and the key was created meanwhile (nothing written). */
export async function uploadFile(
  aws: AwsClients,
  target: S3Location,
  path: string,
  options: UploadFileOptions,
): Promise<'written' | 'exists'> {
  try {
    await upload(aws.s3(), target, createReadStream(path), { partSize: PART_SIZE, ...options });
    return 'written';
  } catch (error) {
    if (options.createOnly && isPreconditionFailed(error)) return 'exists';
    throw error;
  }
}

/** What the uploaded object holds beside what the local file would give: its size, and its ETag against the one S3 would compute. */
export interface UploadedCheck {
  heldBytes: number;
  etag?: string;
  expectedEtag?: string;
}

/** Reads the object back (HEAD); the local ETag is computed only when the sizes match. */
export async function checkUploaded(aws: AwsClients, target: S3Location, path: string, size: number): Promise<UploadedCheck> {
  const head = await headObject(aws.s3(), target);
  if (head.size !== size) return { heldBytes: head.size };
  return { heldBytes: head.size, etag: head.etag?.replace(/"/g, ''), expectedEtag: await expectedEtag(path, size) };
}

/** The ETag S3 gives an object uploaded in parts of PART_SIZE: the MD5 of the body, or of the parts' MD5s with "-<parts>". */
async function expectedEtag(path: string, size: number): Promise<string> {
  const parts: Buffer[] = [];
  let part = createHash('md5');
  let inPart = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    for (let at = 0; at < chunk.length;) {
      const take = Math.min(chunk.length - at, PART_SIZE - inPart);
      part.update(chunk.subarray(at, at + take));
      at += take;
      inPart += take;
      if (inPart === PART_SIZE) {
        parts.push(part.digest());
        part = createHash('md5');
        inPart = 0;
      }
    }
  }
  if (inPart > 0 || parts.length === 0) parts.push(part.digest());
  if (size <= PART_SIZE) return parts[0].toString('hex');
  return `${createHash('md5').update(Buffer.concat(parts)).digest('hex')}-${parts.length}`;
}
