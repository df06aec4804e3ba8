import type { AwsClients } from '../../aws/clients';
import { mlflowClientFor } from '../../aws/mlflow/factory';
import { ItemBudget } from '../../aws/paginate';
import { describeJobDetails } from '../../aws/sagemaker';
import { mlflowConfigOf } from '../../core/jobs/document';
import type { JobRef } from '../../core/jobs/reference';
import type { JobDetails } from '../../core/jobs/job';
import { parseMlflowArn, type MetricPoint, type MlflowResource, type RunStatus } from '../../core/metrics/mlflow';
import { orderedKeys } from '../../core/metrics/table';
import { locateRun } from '../../aws/mlflow/locate';

/** Why a job's MLflow run could not be found: the metrics view and the health watch say it as their own sentence. */
export { RunNotFound } from '../../aws/mlflow/locate';

/** Why a job's metrics cannot be shown, as a sentence naming the fix (the view shows it as its empty state). */
export class MetricsUnavailable extends Error {
  constructor(
    readonly reason: 'no-mlflow-config' | 'bad-mlflow-arn' | 'no-run' | 'no-metrics',
    message: string,
  ) {
    super(message);
  }
}

/** A job's run and the histories of the keys asked for. */
export interface JobMetrics {
  job: JobDetails;
  resource: MlflowResource;
  runId: string;
  experimentId: string;
  runStatus?: RunStatus;
  /** Every metric key the run has logged (from `runs/get`), headline keys first. */
  keys: string[];
  /** The histories loaded: the keys asked for that the run has. */
  series: Record<string, MetricPoint[]>;
  /** Points MLflow sent that were not a finite number at an integer step, left out of `series`. */
  dropped: number;
}

/** Metric keys one run may list: one history request each, and a job logs about a hundred. */
const MAX_KEYS = 2_000;

/** Points one load keeps at most, over every key: about 300 MB with the answers being parsed; a real run has a few hundred thousand. */
const MAX_LOAD_POINTS = 1_500_000;

interface LoadOptions {
  /** Keys to load; default: every key of the run. Keys the run lacks are skipped. */
  keys?: readonly string[];
  signal?: AbortSignal;
  /** An already described job (the tree has one): skips DescribeJob. */
  described?: JobDetails;
}

/** The MLflow resource a job logs to, or MetricsUnavailable with how to add one. */
export function mlflowResourceOf(job: JobDetails): MlflowResource {
  const config = job.document ? mlflowConfigOf(job.document as Record<string, unknown>) : undefined;
  if (!config) {
    const where = job.category === 'AgentRFT' ? 'TrainingConfig.MlflowConfig' : 'OutputDataConfig.MlflowConfig';
    throw new MetricsUnavailable(
      'no-mlflow-config',
      `The job ${job.name} has no MLflow config, so the service logged no metrics for it. For new jobs add ${where} = {"MlflowResourceArn": "<your MLflow app ARN>", "MlflowExperimentName": "…"} to the job file (or pick an MLflow app in the launch wizard).`,
    );
  }
  const resource = parseMlflowArn(config.MlflowResourceArn);
  if (!resource)
    throw new MetricsUnavailable(
      'bad-mlflow-arn',
      `The job's MlflowResourceArn "${config.MlflowResourceArn}" is not an MLflow app or tracking server ARN (arn:aws:sagemaker:<region>:<account>:mlflow-app/<id>).`,
    );
  return resource;
}

/** Describes the job (unless given), finds its run, lists the run's keys and loads their histories in parallel (bounded by the client). */
export async function loadJobMetrics(aws: AwsClients, ref: Required<JobRef>, options: LoadOptions = {}): Promise<JobMetrics> {
  const job = options.described ?? (await describeJobDetails(aws.sagemaker(ref.region), ref, ref.region, options.signal));
  const resource = mlflowResourceOf(job);
  const config = mlflowConfigOf(job.document as Record<string, unknown>)!;
  const client = mlflowClientFor(aws, resource);
  const located = await locateRun(client, job.name, config, job.document?.ServiceOutput?.MlflowDetails, options.signal);
  const { run } = located;
  const keys = orderedKeys((run.data.metrics ?? []).map((m) => m.key));
  if (keys.length > MAX_KEYS)
    throw new Error(
      `The MLflow run ${located.runId} lists ${keys.length.toLocaleString('en-US')} metric keys; a job logs about a hundred, and this reader loads at most ${MAX_KEYS.toLocaleString('en-US')}. Check what runs at ${client.baseUrl}.`,
    );
  const wanted = options.keys ? options.keys.filter((k) => keys.includes(k)) : keys;
  // The first history that fails stops the others: a hostile server's answers are not read to the end.
  const failed = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, failed.signal]) : failed.signal;
  const budget = new ItemBudget(MAX_LOAD_POINTS);
  const histories = await Promise.all(
    wanted.map((key) =>
      client.metricHistory(located.runId, key, { signal, budget }).catch((error: unknown) => {
        failed.abort(error);
        throw error;
      }),
    ),
  );
  const series = Object.fromEntries(wanted.map((key, i) => [key, histories[i].points]));
  const dropped = histories.reduce((sum, h) => sum + h.dropped, 0);
  return { job, resource, runId: located.runId, experimentId: located.experimentId, runStatus: run.info.status, keys, series, dropped };
}

/** The sentence for a run that has logged nothing yet. */
export function noMetricsYet(metrics: JobMetrics): string {
  return `The MLflow run ${metrics.runId} of ${metrics.job.name} has no metrics yet: the first ones arrive when step 1 (validation: step 0) finishes.`;
}
