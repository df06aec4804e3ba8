import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import type { AwsCredentialIdentityProvider, Checksum, SourceData } from '@smithy/types';
import type { MlflowResource } from '../../core/metrics/mlflow';
import { sdk } from '../sdkLoader';

function bytes(data: SourceData): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

/** SHA-256 (HMAC with a secret) over node:crypto, in the shape the signer takes: no extra hashing package needed. */
class NodeSha256 implements Checksum {
  private hash!: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.reset();
  }
  update(data: Uint8Array): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(this.secret));
  }
}

/** Where an MLflow resource's REST API lives, the SigV4 service and the routing header. */
export interface MlflowRoute {
  baseUrl: string;
  service: 'sagemaker' | 'sagemaker-mlflow';
  arnHeader: 'x-sm-mlflow-app-arn' | 'x-mlflow-sm-tracking-server-arn';
}

/** The managed endpoints, or `endpoint` (mtrl.aws.endpoint, e.g. the emulator) for every resource. */
export function mlflowRoute(resource: MlflowResource, endpoint?: string): MlflowRoute {
  const app = resource.kind === 'app';
  const managed = app ? `https://mlflow.sagemaker.${resource.region}.app.aws` : `https://${resource.region}.experiments.sagemaker.aws`;
  return {
    baseUrl: (endpoint || managed).replace(/\/+$/, ''),
    service: app ? 'sagemaker' : 'sagemaker-mlflow',
    arnHeader: app ? 'x-sm-mlflow-app-arn' : 'x-mlflow-sm-tracking-server-arn',
  };
}

export interface UnsignedCall {
  method: 'GET' | 'POST';
  /** e.g. `/api/2.0/mlflow/runs/get`. */
  path: string;
  /** A list repeats the key (`trace_ids=a&trace_ids=b`). */
  query?: Record<string, string | string[]>;
  /** JSON body of a POST. */
  body?: string;
}

interface SignedCall {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** RFC 3986 escaping as SigV4 canonicalises it: spaces as %20, never `+` (the plugin does the same). */
export function escapeQueryPart(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Signs one REST call with the routing header and X-Amz-Content-SHA256 signed, `Connection` left out, as the sagemaker-mlflow plugin does. */
export async function signMlflowCall(
  call: UnsignedCall,
  resource: MlflowResource,
  route: MlflowRoute,
  credentials: AwsCredentialIdentityProvider,
  signingDate?: Date,
): Promise<SignedCall> {
  const base = new URL(route.baseUrl);
  const path = `${base.pathname.replace(/\/+$/, '')}${call.path}`;
  const body = call.body ?? '';
  const headers: Record<string, string> = {
    host: base.host,
    [route.arnHeader]: resource.arn,
    'x-amz-content-sha256': createHash('sha256').update(body).digest('hex'),
    ...(call.method === 'POST' ? { 'content-type': 'application/json' } : {}),
  };
  const signer = new (sdk().SignatureV4)({
    credentials,
    region: resource.region,
    service: route.service,
    sha256: NodeSha256,
    uriEscapePath: true,
  });
  const signed = await signer.sign(
    {
      method: call.method,
      protocol: base.protocol,
      hostname: base.hostname,
      port: base.port ? Number(base.port) : undefined,
      path,
      query: call.query ?? {},
      headers,
      body: call.method === 'POST' ? body : undefined,
    },
    { signingDate },
  );
  const query = Object.entries(call.query ?? {})
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one) => `${escapeQueryPart(k)}=${escapeQueryPart(one)}`))
    .join('&');
  return {
    url: `${base.protocol}//${base.host}${path}${query ? `?${query}` : ''}`,
    method: call.method,
    headers: signed.headers,
    body: call.method === 'POST' ? body : undefined,
  };
}
