import { TRACE_RUN_KEY, type Trace, type TraceInfo } from '../core/rollouts/traces';
import { jobState, mlflowRunOf, rolloutPhaseStart, rolloutTime } from './jobs';
import type { Job } from './jobModel';
import { MlflowError } from './mlflowError';
import { hashSeed } from './random';
import { episodeOf, firstMessageOf } from './rollouts';
import { pythonJson } from './pythonJson';
import { artifactText, restSpans } from './traceSpans';

// One MLflow trace per finished rollout in the real service's shape (test/fixtures/real-run/traces): no step number and no invocation
// metadata, so a reader places a trace in its step by time. A trace lies inside its step's window: it starts after the
// step began (after the previous step's metrics were logged) and ends when the rollout's log lines are written.

/** A trace lasts this long, unless its step began less long ago. */
const TRACE_MS = 6_000;
/** MLflow cuts request previews to this many characters. */
const PREVIEW_CHARS = 1_000;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const jobKey = (job: Job) => hex(hashSeed(job.arn), 8);

/** `tr-` + 32 hex digits, as MLflow 3 names traces: the job's hash, then the rollout's index (so batchGet finds it again). */
export function traceId(job: Job, k: number): string {
  return `tr-${jobKey(job)}${hex(k, 24)}`;
}

/** The job and rollout index a trace id names, among `jobs`, when that rollout has finished by `now`; else undefined. */
export function rolloutOfTraceId(jobs: readonly Job[], id: string, now: number): { job: Job; k: number } | undefined {
  const m = /^tr-([0-9a-f]{8})([0-9a-f]{24})$/.exec(id);
  const job = m ? jobs.find((j) => jobKey(j) === m[1]) : undefined;
  const k = m ? Number.parseInt(m[2], 16) : NaN;
  return job && Number.isSafeInteger(k) && k < jobState(job, now).completedRollouts ? { job, k } : undefined;
}

/** When rollout k's trace starts and ends (epoch ms): inside its step, starts growing with k. */
export function traceWindow(job: Job, k: number): { start: number; end: number } {
  const end = rolloutTime(job, k);
  const stepStart = rolloutPhaseStart(job) + Math.floor(k / job.plan.rolloutsPerStep) * job.plan.stepMs;
  return { start: Math.min(end, Math.max(stepStart, end - TRACE_MS)), end };
}

/** Where the trace's `traces.json` lives: the MLflow app's artifact store, as the real `mlflow.artifactLocation` tag names it. */
export function artifactLocation(job: Job, k: number, artifactStore: string): string {
  return `${artifactStore.replace(/\/+$/, '')}/${mlflowRunOf(job)!.experimentId}/traces/${traceId(job, k)}/artifacts`;
}

/** Rollout k as `traces/search` lists it (info) or `traces/batchGet` returns it (info and spans). */
export function traceOf(job: Job, k: number, withSpans: boolean, artifactStore: string): Trace {
  const run = mlflowRunOf(job)!;
  const id = traceId(job, k);
  const { start, end } = traceWindow(job, k);
  const info: TraceInfo = {
    trace_id: id,
    trace_location: { type: 'MLFLOW_EXPERIMENT', mlflow_experiment: { experiment_id: run.experimentId } },
    request_preview: pythonJson({ prompt: firstMessageOf(job, k) }).slice(0, PREVIEW_CHARS),
    request_time: new Date(start).toISOString(),
    execution_duration: `${(end - start) / 1000}s`,
    state: 'OK',
    trace_metadata: { [TRACE_RUN_KEY]: run.runId, 'mlflow.trace_schema.version': '3' },
    tags: { 'mlflow.artifactLocation': artifactLocation(job, k, artifactStore) },
  };
  if (!withSpans) return { trace_info: info };
  return { trace_info: info, spans: restSpans(episodeOf(job, k), start, end, `${job.seed}#${id}`, id.slice(3)) };
}

/** Rollout k's `traces.json` artifact (the same spans as batchGet's, as MLflow 2 span dicts). */
export function traceArtifactOf(job: Job, k: number): string {
  const id = traceId(job, k);
  const { start, end } = traceWindow(job, k);
  return artifactText(episodeOf(job, k), start, end, `${job.seed}#${id}`, id.slice(3));
}

/** Trace ids one `traces/batchGet` call takes (a URL of repeated `trace_ids`). */
export const MAX_BATCH_TRACES = 100;
/** MLflow's limit on `max_results` of `traces/search`, and its default. */
const MAX_SEARCH_RESULTS = 500;
const DEFAULT_SEARCH_RESULTS = 100;

/** `SearchTracesV3`'s body. */
export interface TraceSearch {
  locations?: { type?: string; mlflow_experiment?: { experiment_id?: string } }[];
  filter?: string;
  max_results?: number;
  order_by?: string[];
  page_token?: string;
}

interface TraceFilter {
  runId?: string;
  /** Only traces that started after this epoch ms. */
  after?: number;
}

const RUN_TERM =
  /^(?:(?:request_)?metadata\.(?:`mlflow\.sourceRun`|"mlflow\.sourceRun"|mlflow\.sourceRun)|(?:attributes\.|trace\.)?run_id)\s*=\s*'([^']*)'$/;
const TIME_TERM = /^(?:attributes\.|trace\.)?timestamp_ms\s*>\s*(\d+)$/;

/** The filters the emulator understands, joined by AND: the run (as `search_traces(run_id=…)` writes it) and a start time. */
function traceFilter(text: string): TraceFilter {
  const filter: TraceFilter = {};
  for (const term of text.trim() ? text.split(/\s+AND\s+/i) : []) {
    const run = RUN_TERM.exec(term.trim());
    const time = TIME_TERM.exec(term.trim());
    if (run) filter.runId = run[1];
    else if (time) filter.after = Number(time[1]);
    else
      throw new MlflowError(
        'INVALID_PARAMETER_VALUE',
        `The emulator understands only run filters (metadata.\`mlflow.sourceRun\` = '…') and timestamp_ms > N, not: ${term}`,
        400,
      );
  }
  return filter;
}

/** First rollout index in [0, n) whose trace starts after `after` (starts grow with the index). */
function firstAfter(job: Job, n: number, after: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (traceWindow(job, mid).start <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `traces/search` over the jobs' runs: each run's traces newest first (or oldest first for `timestamp_ms ASC`), paged by offset. */
export function searchTraces(
  jobs: readonly Job[],
  body: TraceSearch,
  now: number,
  artifactStore: (job: Job) => string,
): { traces?: TraceInfo[]; next_page_token?: string } {
  const experiments = (body.locations ?? []).map((l) => l.mlflow_experiment?.experiment_id).filter((id): id is string => !!id);
  if (!experiments.length) throw new MlflowError('INVALID_PARAMETER_VALUE', 'locations must name at least one MLflow experiment.', 400);
  const size = body.max_results ?? DEFAULT_SEARCH_RESULTS;
  if (!Number.isInteger(size) || size < 1 || size > MAX_SEARCH_RESULTS)
    throw new MlflowError('INVALID_PARAMETER_VALUE', `max_results must be between 1 and ${MAX_SEARCH_RESULTS}, got ${size}.`, 400);
  const filter = traceFilter(body.filter ?? '');
  const ascending = (body.order_by ?? []).some((o) => /^(?:attributes\.|trace\.)?timestamp_ms\s+ASC$/i.test(o.trim()));
  const ranges = jobs
    .filter((j) => experiments.includes(mlflowRunOf(j)!.experimentId) && (!filter.runId || mlflowRunOf(j)!.runId === filter.runId))
    .sort((a, b) => (ascending ? a.created - b.created : b.created - a.created))
    .map((job) => {
      const n = jobState(job, now).completedRollouts;
      return { job, from: filter.after === undefined ? 0 : firstAfter(job, n, filter.after), to: n };
    });
  const offset = body.page_token ? Number.parseInt(Buffer.from(body.page_token, 'base64').toString('utf8'), 10) || 0 : 0;
  const traces: TraceInfo[] = [];
  let skip = offset;
  for (const { job, from, to } of ranges) {
    const count = to - from;
    if (skip >= count) {
      skip -= count;
      continue;
    }
    for (let i = skip; i < count && traces.length < size; i++)
      traces.push(traceOf(job, ascending ? from + i : to - 1 - i, false, artifactStore(job)).trace_info);
    skip = 0;
    if (traces.length >= size) break;
  }
  const total = ranges.reduce((sum, r) => sum + r.to - r.from, 0);
  const end = offset + traces.length;
  return {
    ...(traces.length ? { traces } : {}),
    ...(end < total ? { next_page_token: Buffer.from(String(end)).toString('base64') } : {}),
  };
}
