import { outsideText } from '../core/text/display';
import { endSentence } from '../core/text/sentence';

/** What the sentence may name: the profile and the endpoint in use, and what was being done ("Listing jobs"). */
export interface AwsErrorContext {
  profile?: string;
  endpoint?: string;
  region?: string;
  /** What the user asked for, e.g. "List jobs in us-east-1". */
  action?: string;
}

interface ErrorShape {
  name?: string;
  message?: string;
  code?: string;
  Code?: string;
  cause?: unknown;
  $metadata?: { httpStatusCode?: number; attempts?: number };
  /** Set by the clients' error tagging (clients.ts): the service's name. */
  $service?: string;
}

const THROTTLING = new Set([
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
  'SlowDown',
  'RequestLimitExceeded',
  'ProvisionedThroughputExceededException',
  'RequestThrottled',
  'RequestThrottledException',
]);
const EXPIRED = new Set(['ExpiredTokenException', 'ExpiredToken', 'RequestExpired', 'TokenRefreshRequired']);
const ACCESS_DENIED = new Set([
  'AccessDeniedException',
  'AccessDenied',
  'UnauthorizedOperation',
  'UnrecognizedClientException',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
]);
const VALIDATION = new Set([
  'ValidationException',
  'ValidationError',
  'InvalidParameterException',
  'InvalidParameterValue',
  'InvalidRequest',
  'BadRequestException',
]);
const NOT_FOUND = new Set(['ResourceNotFound', 'ResourceNotFoundException', 'NoSuchEntity', 'NoSuchKey', 'NoSuchBucket', 'NotFound']);
const NETWORK = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** What went wrong, for code that acts on it (offer "Choose AWS Profile" for missing credentials); the sentence is for the user. */
export type AwsErrorKind =
  | 'cancelled'
  | 'sso-expired'
  | 'no-credentials'
  | 'expired-credentials'
  | 'access-denied'
  | 'throttled'
  | 'unreachable'
  | 'invalid'
  | 'not-found'
  | 'service-error'
  | 'other';

export interface AwsErrorExplained {
  kind: AwsErrorKind;
  sentence: string;
}

/** Turns an error of `action` into a sentence naming where calls go now (profile, region, endpoint). */
export type Explain = (error: unknown, action: string, region?: string) => string;

/** The explainer of a services container or CLI command: the sentence, and with `explained` its kind for code that acts on it. */
export interface Explainer extends Explain {
  explained(error: unknown, action: string, region?: string): AwsErrorExplained;
}

/** describeAwsError bound to the current profile, region (unless the call names its own) and endpoint; an abort at a deadline (reason TimeoutError) reads as no answer. */
export function explainerFor(current: () => Omit<AwsErrorContext, 'action'>, signal?: AbortSignal): Explainer {
  const explained = (error: unknown, action: string, region?: string) => {
    const deadline = signal?.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError';
    const now = current();
    return explainAwsError(deadline ? signal.reason : error, {
      profile: now.profile,
      region: region ?? now.region,
      endpoint: now.endpoint,
      action,
    });
  };
  return Object.assign((error: unknown, action: string, region?: string) => explained(error, action, region).sentence, { explained });
}

/** Whether an error came from an AWS service or the SDK (its sentence needs the explainer), not one of our own sentences. */
export function isAwsError(error: unknown): boolean {
  return !(error instanceof Error) || '$metadata' in error || error.name.endsWith('Exception') || error.name === 'CredentialsProviderError';
}

/** The sentence alone, for messages and logs. */
export function describeAwsError(error: unknown, context: AwsErrorContext = {}): string {
  return explainAwsError(error, context).sentence;
}

/** A sentence the user can act on for any error an AWS call throws, and its kind; the service's own message is kept where it is the useful part. */
export function explainAwsError(error: unknown, context: AwsErrorContext = {}): AwsErrorExplained {
  const e = (error ?? {}) as ErrorShape;
  const name = e.name ?? '';
  const message = outsideText(e.message ?? String(error));
  const prefix = context.action ? `${context.action} failed: ` : '';
  const profile = context.profile ? `profile '${context.profile}'` : 'the default profile';
  const loginProfile = context.profile ? ` --profile ${context.profile}` : '';
  const is = (kind: AwsErrorKind, sentence: string): AwsErrorExplained => ({ kind, sentence });

  if (name === 'AbortError' || message === 'Request aborted') return is('cancelled', `${context.action ?? 'The request'} was cancelled.`);
  // By name, not instanceof: a bundle loaded on first use (dist/signal.js …) has its own copy of these classes.
  if (name === 'PaginationError')
    return is(
      'service-error',
      `${prefix}${(error as Error).message} The server is misbehaving: ${context.endpoint ? `check what runs at ${context.endpoint}` : 'try again later'}, or report it.`,
    );
  if (name === 'BodyTooLarge')
    return is(
      'service-error',
      `${prefix}${(error as Error).message} That is far more than any answer this reader expects; check what runs at that address.`,
    );
  if (name === 'SlowAnswer')
    return is(
      'unreachable',
      `${prefix}${(error as Error).message} The server is too slow, not unreachable: try again later, or check what runs at that address (mtrl.aws.endpoint).`,
    );
  if (/sso/i.test(message) && /(expired|invalid|not found|refresh)/i.test(message)) {
    return is(
      'sso-expired',
      `${prefix}the AWS SSO session for ${profile} has expired. Run \`aws sso login${loginProfile}\` and try again.`,
    );
  }
  if (name === 'CredentialsProviderError' || /could not load credentials/i.test(message)) {
    return is(
      'no-credentials',
      `${prefix}no AWS credentials found for ${profile}. Add them to ~/.aws/credentials or ~/.aws/config (or AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE), or choose another profile with "MTRL: Choose AWS Profile".`,
    );
  }
  if (EXPIRED.has(name) || /security token included in the request is expired/i.test(message)) {
    return is(
      'expired-credentials',
      `${prefix}the AWS credentials of ${profile} have expired. Refresh them (for SSO: \`aws sso login${loginProfile}\`) and try again.`,
    );
  }
  if (ACCESS_DENIED.has(name) || e.$metadata?.httpStatusCode === 403) {
    const jobsApi = /job|sagemaker/i.test(`${context.action ?? ''} ${message}`);
    const why = jobsApi
      ? 'the account is not enabled for MTRL, or the identity is missing AmazonSageMakerJobFullAccess'
      : 'the identity lacks the permission';
    return is('access-denied', `${prefix}access denied with ${profile}: ${why}. The service said: ${endSentence(message)}`);
  }
  const where = context.endpoint ? context.endpoint : `AWS${context.region ? ` in ${context.region}` : ''}`;
  // Who answered: the tagged service and operation with where calls go, else the endpoint, else the fallback of each sentence.
  const who = (fallback: string) =>
    e.$service ? `${e.$service} (${where})` : context.endpoint ? `the service at ${context.endpoint}` : fallback;
  if (THROTTLING.has(name) || e.$metadata?.httpStatusCode === 429) {
    const attempts = e.$metadata?.attempts;
    return is(
      'throttled',
      `${prefix}${who(`AWS${context.region ? ` in ${context.region}` : ''}`)} is throttling requests${attempts ? ` (still throttled after ${attempts} attempts)` : ''}. Wait a minute and try again, or run fewer commands against the account at once. The service said: ${endSentence(message)}`,
    );
  }
  const code = networkCode(e);
  if (code) {
    const hint = context.endpoint
      ? ' Is the emulator (`mtrl emulator`) or the service at that address running? Check the setting mtrl.aws.endpoint.'
      : ' Check your network connection or proxy.';
    return is('unreachable', `${prefix}cannot reach ${where} (${code}).${hint}`);
  }
  if (VALIDATION.has(name)) return is('invalid', `${prefix}${message}`);
  // Where it looked: a job in another region is the usual cause.
  if (NOT_FOUND.has(name) || e.$metadata?.httpStatusCode === 404)
    return is('not-found', `${prefix}not found${context.region ? ` in ${context.region}` : ''}: ${message}`);
  if ((e.$metadata?.httpStatusCode ?? 0) >= 500)
    return is(
      'service-error',
      `${prefix}${who('the service')} had an internal error (${name || e.$metadata?.httpStatusCode}): ${endSentence(message)} Try again later.`,
    );
  if (name === 'SyntaxError' || /Deserialization error|Expected .* in JSON|Unexpected token/i.test(message))
    return is(
      'service-error',
      `${prefix}${who('the service')} sent an answer that could not be read (not the JSON or XML it should be: a proxy or captive portal in between, or a cut-off answer): ${endSentence(message)} Check the network or mtrl.aws.endpoint and try again.`,
    );
  return is('other', `${prefix}${name && name !== 'Error' ? `${name}: ` : ''}${message}`);
}

/** The Node network error code of the error or of one of its causes, e.g. ECONNREFUSED, or 'timeout'. */
function networkCode(e: ErrorShape, depth = 0): string | undefined {
  if (depth > 4 || !e) return undefined;
  const code = e.code ?? e.Code;
  if (code && NETWORK.has(code)) return code;
  if (e.name === 'TimeoutError' || /socket hang up|timed out/i.test(e.message ?? '')) return 'timeout';
  const found = NETWORK_IN_MESSAGE.exec(e.message ?? '');
  if (found) return found[1];
  return e.cause && typeof e.cause === 'object' ? networkCode(e.cause as ErrorShape, depth + 1) : undefined;
}

const NETWORK_IN_MESSAGE = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH)\b/;
