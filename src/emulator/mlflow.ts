import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { jobState, mlflowExperimentId, mlflowRunOf } from './jobs';
import type { Job } from './jobModel';
import { setImmediate as nextTick } from 'node:timers/promises';
import { evaluationLedger, hasStepValues, loggedSteps, stepValues, type Family } from './metricsLedger';
import { stepTime, type LoggedValue } from './mlflowMetrics';
import { jsonBody, sendJson, ServiceError, type EmulatorRequest } from './protocol';
import { isKnownMlflowApp } from './mlflowApps';
import { MlflowError } from './mlflowError';
import { MAX_BATCH_TRACES, rolloutOfTraceId, searchTraces, traceOf, type TraceSearch } from './traces';
import type { World } from './world';

const MLFLOW_PATH = /^\/(?:api|ajax-api)\/(2\.0|3\.0)\/mlflow\//;

/** True for the MLflow REST paths (the API and the web UI's copy; 2.0, and 3.0 for traces). */
export function isMlflowPath(path: string): boolean {
  return MLFLOW_PATH.test(path);
}

/** The call a path names, with its API version: `2.0 runs/get`, `3.0 traces/search`. */
const callOf = (path: string) => {
  const version = MLFLOW_PATH.exec(path)?.[1] ?? '';
  return `${version} ${path.replace(MLFLOW_PATH, '')}`;
};

const familyOf = (key: string): Family => (key.startsWith('val/') ? 'validation' : 'training');

/** A step's values; when they had to be computed now, lets other requests in before the next step. */
async function valuesAt(job: Job, family: Family, step: number): Promise<Record<string, number>> {
  if (hasStepValues(job, family, step)) return stepValues(job, family, step);
  const values = stepValues(job, family, step);
  await nextTick();
  return values;
}

/** The points of `key` logged by `now`. */
async function historyOf(job: Job, now: number, key: string): Promise<LoggedValue[]> {
  if (job.category === 'AgentRFTEvaluation') {
    if (jobState(job, now).status !== 'Completed') return [];
    const values = evaluationLedger(job);
    return key in values ? [{ value: values[key], timestamp: stepTime(job, 1), step: 0 }] : [];
  }
  const points: LoggedValue[] = [];
  for (const step of loggedSteps(job, now, familyOf(key))) {
    const values = await valuesAt(job, familyOf(key), step);
    if (key in values) points.push({ value: values[key], timestamp: stepTime(job, step), step });
  }
  return points;
}

/** The latest value of every key (what `runs/get` returns): the last logged step of each family. */
async function latestOf(job: Job, now: number): Promise<{ key: string; value: number; timestamp: number; step: number }[]> {
  const out: { key: string; value: number; timestamp: number; step: number }[] = [];
  if (job.category === 'AgentRFTEvaluation') {
    for (const key of Object.keys(jobState(job, now).status === 'Completed' ? evaluationLedger(job) : {}))
      out.push({ key, ...(await historyOf(job, now, key))[0] });
    return out;
  }
  for (const family of ['training', 'validation'] as const) {
    const step = loggedSteps(job, now, family).pop();
    if (step === undefined) continue;
    for (const [key, value] of Object.entries(await valuesAt(job, family, step)))
      out.push({ key, value, timestamp: stepTime(job, step), step });
  }
  return out;
}

const RUN_STATUS: Record<string, string> = {
  InProgress: 'RUNNING',
  Stopping: 'RUNNING',
  Completed: 'FINISHED',
  Failed: 'FAILED',
  Stopped: 'KILLED',
};

function runInfo(job: Job, now: number) {
  const run = mlflowRunOf(job)!;
  const state = jobState(job, now);
  return {
    run_id: run.runId,
    run_uuid: run.runId,
    run_name: run.runName,
    experiment_id: run.experimentId,
    status: RUN_STATUS[state.status] ?? 'RUNNING',
    start_time: job.created,
    ...(state.endTime !== undefined ? { end_time: state.endTime } : {}),
    artifact_uri: `s3://mtrl-emulator-mlflow/${run.experimentId}/${run.runId}/artifacts`,
    lifecycle_stage: 'active',
  };
}

async function runOf(job: Job, now: number) {
  const run = mlflowRunOf(job)!;
  const metrics = await latestOf(job, now);
  const hp = job.document as {
    TrainingConfig?: { HyperParameters?: Record<string, string> };
    EvaluationConfig?: { HyperParameters?: Record<string, string> };
  };
  const params = Object.entries(hp.TrainingConfig?.HyperParameters ?? hp.EvaluationConfig?.HyperParameters ?? {}).map(([key, value]) => ({
    key,
    value,
  }));
  const tags = [
    { key: 'mlflow.runName', value: run.runName },
    { key: 'sagemaker.job_arn', value: job.arn },
  ];
  return { info: runInfo(job, now), data: { ...(metrics.length ? { metrics } : {}), ...(params.length ? { params } : {}), tags } };
}

/** Jobs of the resource that have been created by `now` and log to MLflow. */
function jobsOf(world: World, resourceArn: string, now: number): Job[] {
  return [...world.jobs.values()].filter((j) => j.created <= now && mlflowRunOf(j)?.resourceArn === resourceArn);
}

/** Which resource the call is for: the signed routing header; unknown apps are not found, scenario ids answer their errors. */
function resourceOf(world: World, request: EmulatorRequest): string {
  const arn = String(request.headers['x-sm-mlflow-app-arn'] ?? request.headers['x-mlflow-sm-tracking-server-arn'] ?? '');
  if (!arn)
    throw new ServiceError(
      'ValidationException',
      'Missing x-sm-mlflow-app-arn (MLflow app) or x-mlflow-sm-tracking-server-arn (tracking server) header.',
      400,
    );
  const signed = /SignedHeaders=([^,\s]+)/.exec(String(request.headers.authorization ?? ''))?.[1].split(';') ?? [];
  if (
    !signed.includes('x-amz-content-sha256') ||
    !signed.some((h) => h === 'x-sm-mlflow-app-arn' || h === 'x-mlflow-sm-tracking-server-arn')
  ) {
    throw new ServiceError(
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided: sign the routing header and X-Amz-Content-SHA256.',
      403,
    );
  }
  if (/denied/i.test(arn))
    throw new ServiceError(
      'AccessDeniedException',
      `User: arn:aws:sts::111122223333:assumed-role/MtrlUser/session is not authorized to perform: sagemaker-mlflow:${actionOf(request.path)} on resource: ${arn}`,
      403,
    );
  if (/creating/i.test(arn))
    throw new ServiceError('ServiceUnavailableException', `MLflow app ${arn} is not ready (status Creating).`, 503);
  if (!isKnownMlflowApp(world, arn)) throw new ServiceError('ResourceNotFound', `MLflow app ${arn} does not exist.`, 404);
  return arn;
}

function actionOf(path: string): string {
  return (
    (
      {
        '2.0 runs/get': 'GetRun',
        '2.0 metrics/get-history': 'GetMetricHistory',
        '2.0 experiments/get-by-name': 'GetExperimentByName',
        '2.0 runs/search': 'SearchRuns',
        '3.0 traces/search': 'SearchTraces',
        '3.0 traces/batchGet': 'BatchGetTraces',
      } as Record<string, string>
    )[callOf(path)] ?? 'AccessUI'
  );
}

function page<T>(items: T[], maxResults: unknown, token: unknown, fallback: number): { items: T[]; next?: string } {
  const size = Math.max(1, Math.min(Number(maxResults) || fallback, fallback));
  const from = token ? Number.parseInt(Buffer.from(String(token), 'base64').toString('utf8'), 10) || 0 : 0;
  const end = from + size;
  return { items: items.slice(from, end), next: end < items.length ? Buffer.from(String(end)).toString('base64') : undefined };
}

/** The run a `run_name` / `tags.mlflow.runName` equality filter names; undefined filters match every run. */
function runNameFilter(filter: string): string | undefined {
  const m = /^\s*(?:tags\.(?:mlflow\.runName|`mlflow\.runName`)|attributes\.run_name|run_name)\s*=\s*'((?:[^'\\]|\\.)*)'\s*$/.exec(filter);
  return m ? m[1].replace(/\\(.)/g, '$1') : undefined;
}

/** Serves MLflow's REST API for the emulator's MLflow apps, consistent with the jobs' own rollouts. */
export async function mlflow(world: World, request: EmulatorRequest, res: ServerResponse): Promise<void> {
  const now = world.clock.now();
  const resourceArn = resourceOf(world, request);
  const call = callOf(request.path);
  const op = call.startsWith('2.0 ') ? call.slice(4) : call;
  const q = request.query;
  const jobs = jobsOf(world, resourceArn, now);
  const artifactStore = (job: Job) => world.mlflowArtifactStore(mlflowRunOf(job)!.resourceArn);
  const jobOfRun = (runId: string | null) => {
    const job = jobs.find((j) => mlflowRunOf(j)!.runId === runId);
    if (!job) throw new MlflowError('RESOURCE_DOES_NOT_EXIST', `Run with id=${runId} not found`, 404);
    return job;
  };
  try {
    if (op === 'runs/get' && request.method === 'GET')
      return sendJson(res, request, { run: await runOf(jobOfRun(q.get('run_id') ?? q.get('run_uuid')), now) }, 200, 'application/json');
    if (op === 'metrics/get-history' && request.method === 'GET') {
      const key = q.get('metric_key');
      if (!key) throw new MlflowError('INVALID_PARAMETER_VALUE', "Missing value for required parameter 'metric_key'.", 400);
      const job = jobOfRun(q.get('run_id') ?? q.get('run_uuid'));
      const all = (await historyOf(job, now, key)).map((p) => ({ key, ...p }));
      const { items, next } = page(all, q.get('max_results'), q.get('page_token'), 25_000);
      return sendJson(
        res,
        request,
        { ...(items.length ? { metrics: items } : {}), ...(next ? { next_page_token: next } : {}) },
        200,
        'application/json',
      );
    }
    if (op === 'experiments/get-by-name' && request.method === 'GET') {
      const name = q.get('experiment_name') ?? '';
      const job = jobs.find((j) => mlflowRunOf(j)!.experimentName === name);
      if (!job) throw new MlflowError('RESOURCE_DOES_NOT_EXIST', `Could not find experiment with name '${name}'`, 404);
      return sendJson(
        res,
        request,
        {
          experiment: {
            experiment_id: mlflowExperimentId(resourceArn, name),
            name,
            lifecycle_stage: 'active',
            artifact_location: `s3://mtrl-emulator-mlflow/${mlflowExperimentId(resourceArn, name)}`,
          },
        },
        200,
        'application/json',
      );
    }
    if (op === 'runs/search' && request.method === 'POST') {
      const body = jsonBody(request) as { experiment_ids?: string[]; filter?: string; max_results?: number; page_token?: string };
      const name = body.filter ? runNameFilter(body.filter) : undefined;
      if (body.filter && name === undefined)
        throw new MlflowError(
          'INVALID_PARAMETER_VALUE',
          `The emulator understands only run-name equality filters, not: ${body.filter}`,
          400,
        );
      const matching = jobs
        .filter(
          (j) =>
            (body.experiment_ids ?? []).includes(mlflowRunOf(j)!.experimentId) && (name === undefined || mlflowRunOf(j)!.runName === name),
        )
        .sort((a, b) => b.created - a.created);
      const { items, next } = page(matching, body.max_results, body.page_token, 1000);
      const runs = await Promise.all(items.map((j) => runOf(j, now)));
      return sendJson(
        res,
        request,
        { ...(runs.length ? { runs } : {}), ...(next ? { next_page_token: next } : {}) },
        200,
        'application/json',
      );
    }
    if (op === '3.0 traces/search' && request.method === 'POST')
      return sendJson(res, request, searchTraces(jobs, jsonBody(request) as TraceSearch, now, artifactStore), 200, 'application/json');
    if (op === '3.0 traces/batchGet' && request.method === 'GET') {
      const ids = q.getAll('trace_ids');
      if (ids.length > MAX_BATCH_TRACES)
        throw new MlflowError('INVALID_PARAMETER_VALUE', `At most ${MAX_BATCH_TRACES} trace_ids per call (got ${ids.length}).`, 400);
      const traces = ids.flatMap((id) => {
        const found = rolloutOfTraceId(jobs, id, now);
        return found ? [traceOf(found.job, found.k, !world.tracesWithoutSpans, artifactStore(found.job))] : [];
      });
      return sendJson(res, request, traces.length ? { traces } : {}, 200, 'application/json');
    }
    throw new MlflowError('ENDPOINT_NOT_FOUND', `The emulator does not serve ${request.method} ${request.path}.`, 404);
  } catch (error) {
    if (!(error instanceof MlflowError)) throw error;
    const body = JSON.stringify({ error_code: error.code, message: error.message });
    res.writeHead(error.status, { 'content-type': 'application/json', 'x-request-id': randomUUID() });
    res.end(body);
  }
}
