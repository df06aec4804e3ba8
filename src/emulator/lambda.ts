import type { ServerResponse } from 'node:http';
import { LAMBDA_ERROR_TYPES } from '../core/jobs/lambdaAgent';
import { ServiceError, sendJson, type EmulatorRequest } from './protocol';
import { ACCOUNT } from './world';

/** The seeded bring-your-own-agent Lambdas: one as documented, one with a short timeout, one that raises, one the caller may not read. */
const FUNCTIONS: Record<string, { timeout: number; behaviour: 'forward' | 'raise' | 'denied' }> = {
  'mtrl-agent-forwarder': { timeout: 900, behaviour: 'forward' },
  'mtrl-agent-short-timeout': { timeout: 60, behaviour: 'forward' },
  'mtrl-agent-raises': { timeout: 900, behaviour: 'raise' },
  'mtrl-agent-denied': { timeout: 900, behaviour: 'denied' },
};

function functionOf(request: EmulatorRequest, encoded: string) {
  const id = decodeURIComponent(encoded);
  const name = id.startsWith('arn:') ? (id.split(':function:')[1]?.split(':')[0] ?? '') : id;
  const fn = FUNCTIONS[name];
  const arn = `arn:aws:lambda:${request.region}:${ACCOUNT}:function:${name}`;
  if (!fn) throw new ServiceError('ResourceNotFoundException', `Function not found: ${arn}`, 404);
  if (fn.behaviour === 'denied')
    throw new ServiceError(
      'AccessDeniedException',
      `User: arn:aws:iam::${ACCOUNT}:user/emulator is not authorized to perform: lambda:${request.method === 'GET' ? 'GetFunctionConfiguration' : 'InvokeFunction'} on resource: ${arn}`,
      403,
    );
  return { name, arn, ...fn };
}

function getFunctionConfiguration(request: EmulatorRequest, res: ServerResponse, encoded: string): void {
  const fn = functionOf(request, encoded);
  sendJson(
    res,
    request,
    { FunctionName: fn.name, FunctionArn: fn.arn, Runtime: 'python3.12', Handler: 'app.handler', Timeout: fn.timeout, State: 'Active' },
    200,
    'application/json',
  );
}

/** What the documented forwarder answers: a request outside the documented shape is a ValidationError, a job that does not run is too. */
function forwarderAnswer(body: unknown): Record<string, unknown> {
  const request = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const metadata = request.metadata && typeof request.metadata === 'object' ? (request.metadata as Record<string, unknown>) : {};
  const missing = [
    typeof request.prompt === 'string' ? undefined : 'prompt',
    typeof metadata.jobArn === 'string' ? undefined : 'metadata.jobArn',
    typeof metadata.rolloutId === 'string' ? undefined : 'metadata.rolloutId',
    request.inferenceParams && typeof request.inferenceParams === 'object' ? undefined : 'inferenceParams',
  ].filter((m): m is string => m !== undefined);
  if (missing.length) return { errorType: LAMBDA_ERROR_TYPES[0], errorMessage: `Request is missing ${missing.join(', ')}.` };
  return { errorType: LAMBDA_ERROR_TYPES[0], errorMessage: `Could not find job ${String(metadata.jobArn)}` };
}

function invoke(request: EmulatorRequest, res: ServerResponse, encoded: string): void {
  const fn = functionOf(request, encoded);
  let body: unknown;
  try {
    body = JSON.parse(request.body.toString('utf8'));
  } catch {
    body = undefined;
  }
  const headers = { 'content-type': 'application/json', 'x-amzn-requestid': request.requestId, 'x-amz-executed-version': '$LATEST' };
  if (fn.behaviour === 'raise') {
    res.writeHead(200, { ...headers, 'x-amz-function-error': 'Unhandled' });
    return void res.end(
      JSON.stringify({ errorMessage: "'instance'", errorType: 'KeyError', stackTrace: ['  File "/var/task/app.py", line 9'] }),
    );
  }
  res.writeHead(200, headers);
  res.end(JSON.stringify(forwarderAnswer(body)));
}

const ROUTES: { operation: string; method: string; path: RegExp; handle: (r: EmulatorRequest, res: ServerResponse, id: string) => void }[] =
  [
    {
      operation: 'GetFunctionConfiguration',
      method: 'GET',
      path: /^\/2015-03-31\/functions\/([^/]+)\/configuration$/,
      handle: getFunctionConfiguration,
    },
    { operation: 'Invoke', method: 'POST', path: /^\/2015-03-31\/functions\/([^/]+)\/invocations$/, handle: invoke },
  ];

/** Every Lambda operation served: the routing itself, so the service-model test drives each one. */
export const LAMBDA_OPERATIONS: readonly string[] = ROUTES.map((r) => r.operation);

/** Lambda over REST-JSON: the two calls the bring-your-own-agent pre-flight makes. */
export function lambda(request: EmulatorRequest, res: ServerResponse): void {
  for (const route of ROUTES) {
    const match = request.method === route.method ? route.path.exec(request.path) : null;
    if (match) return route.handle(request, res, match[1]);
  }
  throw new ServiceError('UnknownOperationException', `The emulator does not implement Lambda ${request.method} ${request.path}.`, 404);
}
