/** The kinds of SageMaker MLflow resource a job can log to. */
type MlflowResourceKind = 'app' | 'tracking-server';

export interface MlflowResource {
  arn: string;
  kind: MlflowResourceKind;
  region: string;
  account: string;
  /** The app id (`app-…`) or the tracking server name. */
  id: string;
}

/** What a job's config document names: where its metrics go. */
export interface MlflowConfig {
  MlflowResourceArn: string;
  MlflowExperimentName?: string;
  MlflowRunName?: string;
}

/** `ServiceOutput.MlflowDetails`: the service's record of the run it logged to. */
export interface MlflowDetails {
  ExperimentName?: string;
  RunName?: string;
  ExperimentId?: string;
  RunId?: string;
}

/** One point of a metric's history, as MLflow's REST API sends it. */
export interface MetricPoint {
  key: string;
  value: number;
  timestamp: number;
  step: number;
}

export type RunStatus = 'RUNNING' | 'SCHEDULED' | 'FINISHED' | 'FAILED' | 'KILLED';

interface RunInfo {
  run_id: string;
  run_name?: string;
  experiment_id: string;
  status: RunStatus;
  start_time?: number;
  end_time?: number;
  artifact_uri?: string;
  lifecycle_stage?: string;
}

/** `runs/get`'s run: the latest value of each metric, params and tags. */
export interface Run {
  info: RunInfo;
  data: { metrics?: MetricPoint[]; params?: { key: string; value: string }[]; tags?: { key: string; value: string }[] };
}

export interface Experiment {
  experiment_id: string;
  name: string;
}

const ARN = /^arn:[a-z0-9-.]+:sagemaker:([a-z0-9-]+):(\d{12}|[^:]+):(mlflow-app|mlflow-tracking-server)\/(.+)$/;

/** An MLflow app or tracking server ARN, or undefined for anything else. */
export function parseMlflowArn(arn: string): MlflowResource | undefined {
  const m = ARN.exec(arn.trim());
  if (!m) return undefined;
  return { arn: arn.trim(), region: m[1], account: m[2], kind: m[3] === 'mlflow-app' ? 'app' : 'tracking-server', id: m[4] };
}

/** The IAM action behind each REST call, for AccessDenied sentences. */
export const MLFLOW_ACTIONS = {
  'experiments/get-by-name': 'sagemaker-mlflow:GetExperimentByName',
  'runs/search': 'sagemaker-mlflow:SearchRuns',
  'runs/get': 'sagemaker-mlflow:GetRun',
  'metrics/get-history': 'sagemaker-mlflow:GetMetricHistory',
  'traces/search': 'sagemaker-mlflow:SearchTraces',
  'traces/batchGet': 'sagemaker-mlflow:BatchGetTraces',
} as const;

export type MlflowCall = keyof typeof MLFLOW_ACTIONS;
