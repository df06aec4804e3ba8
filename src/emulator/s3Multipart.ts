import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendXml, ServiceError, toXml, type EmulatorRequest } from './protocol';
import { bucketOf, etagOf, md5, NS, refuseOverwrite, userMetadata, type Target } from './s3Objects';
import type { World } from './world';

/** S3's smallest part, except the last one of an upload. */
const MIN_PART_SIZE = 5 * 1024 * 1024;
type MultipartUpload = NonNullable<ReturnType<World['multipart']['get']>>;

/** The multipart ETag: MD5 of the concatenated binary MD5s of the parts, then "-<parts>". */
function multipartEtag(parts: Buffer[]): string {
  return `"${md5(Buffer.concat(parts.map(md5))).toString('hex')}-${parts.length}"`;
}

export function createMultipartUpload(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName, key }: Target): void {
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

export function uploadPart(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
  uploadOf(world, request, bucketName).parts.set(Number(request.query.get('partNumber')), request.body);
  res.writeHead(200, { etag: etagOf(request.body) });
  res.end();
}

export function abortMultipartUpload(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName }: Target): void {
  uploadOf(world, request, bucketName);
  world.multipart.delete(request.query.get('uploadId') ?? '');
  res.writeHead(204).end();
}

export function completeMultipartUpload(world: World, request: EmulatorRequest, res: ServerResponse, { bucketName, key }: Target): void {
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
