import type { MetricPoint, MlflowCall, Run } from '../../core/metrics/mlflow';

// What an MLflow answer must be before a reader uses it: a failed call's error, and the shape checks of a 200.

/** An MLflow call that failed: the HTTP status, MLflow's `error_code` (or the gateway's error type) and its message. */
export class MlflowError extends Error {
  override readonly name = 'MlflowError';
  constructor(
    readonly call: MlflowCall,
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly resourceArn: string,
    /** The URL called, for sentences that name the endpoint. */
    readonly url?: string,
  ) {
    super(message);
  }
}

/** MlflowError codes of a 200 that cannot be used: a body that is not JSON, and JSON of the wrong shape. */
export const NOT_JSON = 'NOT_JSON';
export const MALFORMED = 'MALFORMED_RESPONSE';

/** Where an answer came from, for the error: the resource and the URL called. */
export interface AnswerOrigin {
  arn: string;
  url: string;
}

/** The list under `field` of a page (absent: none); anything else there is a malformed answer. */
export function listIn(at: AnswerOrigin, call: MlflowCall, page: unknown, field: string): unknown[] {
  if (typeof page !== 'object' || page === null || Array.isArray(page))
    throw new MlflowError(call, 200, MALFORMED, 'the answer is not a JSON object', at.arn, at.url);
  const list = (page as Record<string, unknown>)[field];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new MlflowError(call, 200, MALFORMED, `"${field}" is ${typeof list}, not a list`, at.arn, at.url);
  return list;
}

/** A run as the readers use it: an info with a run id, and metrics that are a list of keyed entries. */
export function checkedRun(at: AnswerOrigin, call: MlflowCall, raw: unknown): Run {
  const run = raw as Run | undefined;
  if (typeof run?.info?.run_id !== 'string') throw new MlflowError(call, 200, MALFORMED, 'a run has no info.run_id', at.arn, at.url);
  const metrics = listIn(at, call, run.data ?? {}, 'metrics');
  if (!metrics.every((m) => typeof (m as { key?: unknown })?.key === 'string'))
    throw new MlflowError(call, 200, MALFORMED, 'a metric of run.data.metrics has no key', at.arn, at.url);
  return { ...run, data: { ...run.data, metrics: metrics as MetricPoint[] } };
}

/** The next page token of a page: absent or empty ends the listing; anything but a string is a malformed answer. */
export function tokenIn(at: AnswerOrigin, call: MlflowCall, page: unknown): string | undefined {
  const token = (page as Record<string, unknown>).next_page_token;
  if (token === undefined || token === null || token === '') return undefined;
  if (typeof token !== 'string')
    throw new MlflowError(call, 200, MALFORMED, `"next_page_token" is ${typeof token}, not a string`, at.arn, at.url);
  return token;
}
