import type { ServerResponse } from 'node:http';
import { ServiceError, type EmulatorRequest } from './protocol';
import { deleteObjects, listObjects } from './s3Listing';
import { abortMultipartUpload, completeMultipartUpload, createMultipartUpload, uploadPart } from './s3Multipart';
import { createBucket, deleteObject, getObject, headBucket, listBuckets, putObject, type Handler } from './s3Objects';
import type { World } from './world';

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
