import type { AwsCredentialIdentityProvider } from '@smithy/types';
import type { Experiment, MetricPoint, MlflowCall, MlflowResource, Run } from '../../core/metrics/mlflow';
import type { Trace, TraceInfo } from '../../core/rollouts/traces';
import { checkedRun, listIn, MlflowError, NOT_JSON, tokenIn, type AnswerOrigin } from './answers';
import { checkedPoints } from '../../core/metrics/points';
import { paginate, type ItemBudget } from '../paginate';
import { readBodyText, SlowAnswer } from '../responseBody';
import { mlflowRoute, signMlflowCall, type MlflowRoute, type UnsignedCall } from './signing';

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
  /** A response body's cap after decompression (default 16 MiB). */
  maxBodyBytes?: number;
}

/** How a metric's history is read: the caller's signal, a page size, and the item budget of the whole load. */
interface HistoryOptions {
  signal?: AbortSignal;
  pageSize?: number;
  budget?: ItemBudget;
}

/** 16 MiB: a 25,000-point history page is about 2 MB, a batch of 50 real traces with their spans well under 1 MB; 16 reads at once stay under 300 MB. */
const MAX_BODY = 16 * 2 ** 20;
/** Points of one metric at most: a run logs one per step, and real runs have thousands of steps, not hundreds of thousands. */
const MAX_POINTS = 500_000;

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

  private get origin(): AnswerOrigin {
    return { arn: this.resource.arn, url: this.baseUrl };
  }

  /** The run with its latest metrics; a run without info, or metrics that are not a list of keyed entries, is a malformed answer. */
  async getRun(runId: string, signal?: AbortSignal): Promise<Run> {
    const out = await this.call<{ run?: Run }>(
      'runs/get',
      { method: 'GET', path: '/api/2.0/mlflow/runs/get', query: { run_id: runId } },
      signal,
    );
    return checkedRun(this.origin, 'runs/get', out?.run);
  }

  /** Every point of one metric, page after page, checked: malformed points are dropped and counted; a bad shape is an MlflowError. */
  async metricHistory(runId: string, key: string, options: HistoryOptions = {}): Promise<{ points: MetricPoint[]; dropped: number }> {
    const points: MetricPoint[] = [];
    let dropped = 0;
    const pages = paginate(
      async (token, signal) => {
        const query: Record<string, string> = {
          run_id: runId,
          metric_key: key,
          max_results: String(options.pageSize ?? PAGE),
          ...(token ? { page_token: token } : {}),
        };
        const call = 'metrics/get-history';
        const page = await this.call<unknown>(call, { method: 'GET', path: '/api/2.0/mlflow/metrics/get-history', query }, signal);
        return { items: listIn(this.origin, call, page, 'metrics'), next: tokenIn(this.origin, call, page) };
      },
      {
        what: `MLflow metrics/get-history of ${key} at ${this.baseUrl}`,
        signal: options.signal,
        budget: options.budget,
        maxItems: MAX_POINTS,
      },
    );
    for await (const raw of pages) {
      const checked = checkedPoints(key, raw);
      for (const point of checked.points) points.push(point);
      dropped += checked.dropped;
    }
    return { points, dropped };
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
    const pages = paginate<Run>(
      async (token, pageSignal) => {
        const body = {
          experiment_ids: experimentIds,
          filter,
          run_view_type: 'ACTIVE_ONLY',
          max_results: 1000,
          order_by: ['attributes.start_time DESC'],
          ...(token ? { page_token: token } : {}),
        };
        const call = 'runs/search';
        const page = await this.call<unknown>(
          call,
          { method: 'POST', path: '/api/2.0/mlflow/runs/search', body: JSON.stringify(body) },
          pageSignal,
        );
        return {
          items: listIn(this.origin, call, page, 'runs').map((run) => checkedRun(this.origin, call, run)),
          next: tokenIn(this.origin, call, page),
        };
      },
      { what: `MLflow runs/search at ${this.baseUrl}`, signal, maxItems: 100_000 },
    );
    for await (const page of pages) for (const run of page) runs.push(run);
    return runs;
  }

  /** A run's trace infos page by page (`traces/search`, MLflow 3), at most `limit` in all. */
  async *searchTraces(query: TraceQuery, signal?: AbortSignal): AsyncGenerator<TraceInfo[]> {
    const filter = [`metadata.\`mlflow.sourceRun\` = '${query.runId.replace(/'/g, "\\'")}'`];
    if (query.after !== undefined) filter.push(`trace.timestamp_ms > ${Math.floor(query.after)}`);
    let left = query.limit ?? Infinity;
    const pages = paginate<TraceInfo>(
      async (token, pageSignal) => {
        if (left <= 0) return { items: [] };
        const body = {
          locations: [{ type: 'MLFLOW_EXPERIMENT', mlflow_experiment: { experiment_id: query.experimentId } }],
          filter: filter.join(' AND '),
          max_results: Math.min(query.pageSize ?? TRACE_PAGE, TRACE_PAGE, left),
          order_by: [`timestamp_ms ${query.oldestFirst ? 'ASC' : 'DESC'}`],
          ...(token ? { page_token: token } : {}),
        };
        const call = 'traces/search';
        const page = await this.call<unknown>(
          call,
          { method: 'POST', path: '/api/3.0/mlflow/traces/search', body: JSON.stringify(body) },
          pageSignal,
        );
        const traces = (listIn(this.origin, call, page, 'traces') as TraceInfo[]).slice(0, left);
        left -= traces.length;
        return { items: traces, next: left > 0 ? tokenIn(this.origin, call, page) : undefined };
      },
      // Follow mode reads every new trace: a run has at most a few hundred thousand.
      { what: `MLflow traces/search at ${this.baseUrl}`, signal, maxPages: 5_000 },
    );
    for await (const page of pages) yield [...page];
  }

  /** Whole traces (info and spans) by id, `TRACE_BATCH` ids a call, in parallel up to the client's concurrency; unknown ids are left out. */
  async batchGetTraces(ids: readonly string[], signal?: AbortSignal): Promise<Trace[]> {
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += TRACE_BATCH) batches.push(ids.slice(i, i + TRACE_BATCH));
    const pages = await Promise.all(
      batches.map((trace_ids) =>
        this.call<unknown>('traces/batchGet', { method: 'GET', path: '/api/3.0/mlflow/traces/batchGet', query: { trace_ids } }, signal),
      ),
    );
    return pages.flatMap((page) => listIn(this.origin, 'traces/batchGet', page, 'traces') as Trace[]);
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
    const seconds = (this.options.timeoutMs ?? 30_000) / 1000;
    const timeout = AbortSignal.timeout(seconds * 1000);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const where = `${this.baseUrl}${request.path}`;
    let response: Response;
    try {
      response = await fetch(signed.url, { method: signed.method, headers: signed.headers, body: signed.body, signal: both });
    } catch (error) {
      if (timeout.aborted && !signal?.aborted) throw new SlowAnswer(where, undefined, seconds);
      throw error;
    }
    const text = await readBodyText(response, where, this.options.maxBodyBytes ?? MAX_BODY, { signal: timeout, seconds });
    if (response.ok) {
      if (!text) return {} as T;
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new MlflowError(
          call,
          response.status,
          NOT_JSON,
          `the answer is not JSON (it starts "${text.slice(0, 60)}")`,
          this.resource.arn,
          where,
        );
      }
    }
    let parsed: { error_code?: unknown; message?: unknown; Message?: unknown } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // A gateway page rather than JSON: the status says enough.
    }
    const said = [parsed?.message, parsed?.Message].find((m): m is string => typeof m === 'string');
    const gatewayType = response.headers.get('x-amzn-errortype')?.split(':')[0];
    const code = typeof parsed?.error_code === 'string' ? parsed.error_code : (gatewayType ?? `HTTP ${response.status}`);
    throw new MlflowError(call, response.status, code, (said ?? text.slice(0, 300)) || response.statusText, this.resource.arn, where);
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
