import type { AwsCredentialIdentityProvider } from '@smithy/types';
import type { Experiment, MetricPoint, MlflowCall, MlflowResource, Run } from '../../core/metrics/mlflow';
import type { Trace, TraceInfo } from '../../core/rollouts/traces';
import { mlflowRoute, signMlflowCall, type MlflowRoute, type UnsignedCall } from './signing';

/** An MLflow call that failed: the HTTP status, MLflow's `error_code` (or the gateway's error type) and its message. */
export class MlflowError extends Error {
  override readonly name = 'MlflowError';
  constructor(
    readonly call: MlflowCall,
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly resourceArn: string,
  ) {
    super(message);
  }
}

interface MlflowClientOptions {
  credentials: AwsCredentialIdentityProvider;
  /** mtrl.aws.endpoint: every MLflow call goes there too (the emulator). */
  endpoint?: string;
  /** Requests in flight at once (default 16). */
  concurrency?: number;
  /** Per request (default 30 s). */
  timeoutMs?: number;
  /** Attempts for throttling and 5xx answers (default 3). */
  maxAttempts?: number;
}

const PAGE = 25_000;
/** MLflow's largest `traces/search` page, and the trace ids one `traces/batchGet` URL carries. */
export const TRACE_PAGE = 500;
export const TRACE_BATCH = 50;

/** Which traces to list: a run's, optionally only those started after a time; newest first unless `oldestFirst`. */
export interface TraceQuery {
  experimentId: string;
  runId: string;
  /** Epoch ms: only traces that started after it (follow mode). */
  after?: number;
  oldestFirst?: boolean;
  /** Stop after this many traces (default: every one). */
  limit?: number;
  pageSize?: number;
}

/** SigV4-signed REST calls to one SageMaker MLflow app or tracking server, at most `concurrency` at a time. */
export class MlflowClient {
  private readonly route: MlflowRoute;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly resource: MlflowResource,
    private readonly options: MlflowClientOptions,
  ) {
    this.route = mlflowRoute(resource, options.endpoint);
  }

  get baseUrl(): string {
    return this.route.baseUrl;
  }

  async getRun(runId: string, signal?: AbortSignal): Promise<Run> {
    const out = await this.call<{ run: Run }>(
      'runs/get',
      { method: 'GET', path: '/api/2.0/mlflow/runs/get', query: { run_id: runId } },
      signal,
    );
    return out.run;
  }

  /** Every point of one metric, page after page (`pageSize` points a page). */
  async metricHistory(runId: string, key: string, signal?: AbortSignal, pageSize = PAGE): Promise<MetricPoint[]> {
    const points: MetricPoint[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = {
        run_id: runId,
        metric_key: key,
        max_results: String(pageSize),
        ...(token ? { page_token: token } : {}),
      };
      const page = await this.call<{ metrics?: MetricPoint[]; next_page_token?: string }>(
        'metrics/get-history',
        { method: 'GET', path: '/api/2.0/mlflow/metrics/get-history', query },
        signal,
      );
      for (const m of page.metrics ?? [])
        points.push({ key: m.key, value: Number(m.value), timestamp: Number(m.timestamp), step: Number(m.step ?? 0) });
      token = page.next_page_token || undefined;
    } while (token);
    return points;
  }

  /** The experiment, or undefined when MLflow answers RESOURCE_DOES_NOT_EXIST. */
  async experimentByName(name: string, signal?: AbortSignal): Promise<Experiment | undefined> {
    try {
      const out = await this.call<{ experiment: Experiment }>(
        'experiments/get-by-name',
        { method: 'GET', path: '/api/2.0/mlflow/experiments/get-by-name', query: { experiment_name: name } },
        signal,
      );
      return out.experiment;
    } catch (error) {
      if (error instanceof MlflowError && error.errorCode === 'RESOURCE_DOES_NOT_EXIST') return undefined;
      throw error;
    }
  }

  /** Active runs of the experiments matching `filter` (MLflow's search syntax), newest first, every page. */
  async searchRuns(experimentIds: string[], filter: string, signal?: AbortSignal): Promise<Run[]> {
    const runs: Run[] = [];
    let token: string | undefined;
    do {
      const body = {
        experiment_ids: experimentIds,
        filter,
        run_view_type: 'ACTIVE_ONLY',
        max_results: 1000,
        order_by: ['attributes.start_time DESC'],
        ...(token ? { page_token: token } : {}),
      };
      const page = await this.call<{ runs?: Run[]; next_page_token?: string }>(
        'runs/search',
        { method: 'POST', path: '/api/2.0/mlflow/runs/search', body: JSON.stringify(body) },
        signal,
      );
      runs.push(...(page.runs ?? []));
      token = page.next_page_token || undefined;
    } while (token);
    return runs;
  }

  /** A run's trace infos page by page (`traces/search`, MLflow 3), at most `limit` in all. */
  async *searchTraces(query: TraceQuery, signal?: AbortSignal): AsyncGenerator<TraceInfo[]> {
    const filter = [`metadata.\`mlflow.sourceRun\` = '${query.runId.replace(/'/g, "\\'")}'`];
    if (query.after !== undefined) filter.push(`trace.timestamp_ms > ${Math.floor(query.after)}`);
    let left = query.limit ?? Infinity;
    let token: string | undefined;
    do {
      const body = {
        locations: [{ type: 'MLFLOW_EXPERIMENT', mlflow_experiment: { experiment_id: query.experimentId } }],
        filter: filter.join(' AND '),
        max_results: Math.min(query.pageSize ?? TRACE_PAGE, TRACE_PAGE, left),
        order_by: [`timestamp_ms ${query.oldestFirst ? 'ASC' : 'DESC'}`],
        ...(token ? { page_token: token } : {}),
      };
      const page = await this.call<{ traces?: TraceInfo[]; next_page_token?: string }>(
        'traces/search',
        { method: 'POST', path: '/api/3.0/mlflow/traces/search', body: JSON.stringify(body) },
        signal,
      );
      const traces = (page.traces ?? []).slice(0, left);
      left -= traces.length;
      if (traces.length) yield traces;
      token = page.next_page_token || undefined;
    } while (token && left > 0);
  }

  /** Whole traces (info and spans) by id, `TRACE_BATCH` ids a call, in parallel up to the client's concurrency; unknown ids are left out. */
  async batchGetTraces(ids: readonly string[], signal?: AbortSignal): Promise<Trace[]> {
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += TRACE_BATCH) batches.push(ids.slice(i, i + TRACE_BATCH));
    const pages = await Promise.all(
      batches.map((trace_ids) =>
        this.call<{ traces?: Trace[] }>(
          'traces/batchGet',
          { method: 'GET', path: '/api/3.0/mlflow/traces/batchGet', query: { trace_ids } },
          signal,
        ),
      ),
    );
    return pages.flatMap((page) => page.traces ?? []);
  }

  private async call<T>(call: MlflowCall, request: UnsignedCall, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      const attempts = this.options.maxAttempts ?? 3;
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.send<T>(call, request, signal);
        } catch (error) {
          const retry = error instanceof MlflowError && (error.status === 429 || error.status >= 500);
          if (!retry || attempt >= attempts || signal?.aborted) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** (attempt - 1)));
        }
      }
    } finally {
      this.release();
    }
  }

  private async send<T>(call: MlflowCall, request: UnsignedCall, signal?: AbortSignal): Promise<T> {
    const signed = await signMlflowCall(request, this.resource, this.route, this.options.credentials);
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
    const response = await fetch(signed.url, {
      method: signed.method,
      headers: signed.headers,
      body: signed.body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const text = await response.text();
    if (response.ok) return (text ? JSON.parse(text) : {}) as T;
    let parsed: { error_code?: string; message?: string; Message?: string } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // A gateway page rather than JSON: the status says enough.
    }
    const gatewayType = response.headers.get('x-amzn-errortype')?.split(':')[0];
    const code = parsed.error_code ?? gatewayType ?? `HTTP ${response.status}`;
    throw new MlflowError(
      call,
      response.status,
      code,
      (parsed.message ?? parsed.Message ?? text.slice(0, 300)) || response.statusText,
      this.resource.arn,
    );
  }

  private async acquire(signal?: AbortSignal): Promise<void> {
    if (this.active < (this.options.concurrency ?? 16)) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    if (signal?.aborted) {
      this.release();
      signal.throwIfAborted();
    }
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.();
  }
}
