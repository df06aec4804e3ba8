import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

/** An error the emulated service answers with, in the wire shape of the caller's protocol. */
export class ServiceError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

type Protocol = 'json' | 'query' | 'rest-json' | 'rest-xml';

/** One request, read whole: the service from the SigV4 scope, the JSON target, the path and query. */
export interface EmulatorRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** Signing name from the Authorization header's credential scope, e.g. `sagemaker`, `logs`, `s3`. */
  service: string;
  region: string;
  /** `X-Amz-Target` operation for JSON protocols (`ListJobs`), `Action` for query protocols. */
  operation?: string;
  requestId: string;
}

export async function readRequest(req: IncomingMessage): Promise<EmulatorRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body: Buffer = Buffer.concat(chunks);
  if (isAwsChunked(req.headers)) body = decodeAwsChunked(body);
  const url = new URL(req.url ?? '/', 'http://emulator');
  const scope = /Credential=[^/]+\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/.exec(String(req.headers.authorization ?? ''));
  const target = String(req.headers['x-amz-target'] ?? '');
  let operation = target ? target.slice(target.indexOf('.') + 1) : undefined;
  let query = url.searchParams;
  if (!target && String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    query = new URLSearchParams(body.toString('utf8'));
    operation = query.get('Action') ?? undefined;
  }
  return {
    method: req.method ?? 'GET',
    path: decodeURIComponent(url.pathname),
    query: target ? url.searchParams : query,
    headers: req.headers,
    body,
    service: scope?.[2] ?? '',
    region: scope?.[1] ?? 'us-east-1',
    operation,
    requestId: randomUUID(),
  };
}

function isAwsChunked(headers: IncomingMessage['headers']): boolean {
  return (
    String(headers['content-encoding'] ?? '').includes('aws-chunked') ||
    String(headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING-')
  );
}

/** The SDK streams S3 bodies as `aws-chunked` (size;ext CRLF data CRLF … 0 CRLF trailers): keep only the data. */
function decodeAwsChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < raw.length) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(raw.subarray(at, eol).toString('latin1').split(';')[0], 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export function protocolOf(request: EmulatorRequest): Protocol {
  if (request.service === 's3') return 'rest-xml';
  if (request.service === 'sts' || request.service === 'iam' || request.service === 'sns') return 'query';
  if (request.headers['x-amz-target']) return 'json';
  return 'rest-json';
}

export function sendJson(
  res: ServerResponse,
  request: EmulatorRequest,
  value: unknown,
  status = 200,
  contentType = 'application/x-amz-json-1.1',
): void {
  const body = JSON.stringify(value ?? {});
  res.writeHead(status, { 'content-type': contentType, 'x-amzn-requestid': request.requestId, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);
}

/** A tiny XML writer: objects become elements, arrays repeat the element, dates become ISO 8601. */
export function toXml(name: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map((v) => toXml(name, v)).join('');
  if (value instanceof Date) return `<${name}>${value.toISOString()}</${name}>`;
  if (typeof value === 'object')
    return `<${name}>${Object.entries(value)
      .map(([k, v]) => toXml(k, v))
      .join('')}</${name}>`;
  return `<${name}>${xmlEscape(String(value))}</${name}>`;
}

export function sendXml(
  res: ServerResponse,
  request: EmulatorRequest,
  xml: string,
  status = 200,
  headers: Record<string, string> = {},
): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
  res.writeHead(status, {
    'content-type': 'text/xml',
    'x-amzn-requestid': request.requestId,
    'x-amz-request-id': request.requestId,
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

/** An AWS query-protocol answer: `<OpResponse><OpResult>…</OpResult><ResponseMetadata/></OpResponse>`. */
export function sendQuery(res: ServerResponse, request: EmulatorRequest, namespace: string, result: Record<string, unknown>): void {
  const op = request.operation ?? 'Unknown';
  const inner = Object.entries(result)
    .map(([k, v]) => toXml(k, v))
    .join('');
  sendXml(
    res,
    request,
    `<${op}Response xmlns="${namespace}"><${op}Result>${inner}</${op}Result><ResponseMetadata><RequestId>${request.requestId}</RequestId></ResponseMetadata></${op}Response>`,
  );
}

/** Writes the error in the shape the caller's SDK client parses. */
export function sendError(res: ServerResponse, request: EmulatorRequest, error: ServiceError): void {
  if (res.headersSent) return void res.destroy();
  const protocol = protocolOf(request);
  if (protocol === 'json') {
    const body = JSON.stringify({ __type: error.code, message: error.message });
    res.writeHead(error.status, {
      'content-type': 'application/x-amz-json-1.1',
      'x-amzn-requestid': request.requestId,
      'x-amzn-errortype': error.code,
    });
    res.end(body);
  } else if (protocol === 'rest-json') {
    res.writeHead(error.status, {
      'content-type': 'application/json',
      'x-amzn-requestid': request.requestId,
      'x-amzn-errortype': error.code,
    });
    res.end(JSON.stringify({ message: error.message }));
  } else if (protocol === 'query') {
    const type = error.status >= 500 ? 'Receiver' : 'Sender';
    sendXml(
      res,
      request,
      `<ErrorResponse><Error><Type>${type}</Type><Code>${xmlEscape(error.code)}</Code><Message>${xmlEscape(error.message)}</Message></Error><RequestId>${request.requestId}</RequestId></ErrorResponse>`,
      error.status,
    );
  } else if (request.method === 'HEAD') {
    res.writeHead(error.status, { 'x-amz-request-id': request.requestId });
    res.end();
  } else {
    sendXml(
      res,
      request,
      `<Error><Code>${xmlEscape(error.code)}</Code><Message>${xmlEscape(error.message)}</Message><RequestId>${request.requestId}</RequestId></Error>`,
      error.status,
    );
  }
}

/** Parses a JSON request body, answering a clear error for a broken one. */
export function jsonBody(request: EmulatorRequest): Record<string, unknown> {
  if (request.body.length === 0) return {};
  try {
    return JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new ServiceError('SerializationException', 'The request body is not valid JSON.');
  }
}
