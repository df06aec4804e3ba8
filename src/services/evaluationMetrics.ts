import type { AwsClients } from '../aws/clients';
import { mlflowClientFor } from '../aws/mlflow/factory';
import { mlflowConfigOf, type JobConfigDocument } from '../core/jobs/document';
import { parseMlflowArn } from '../core/metrics/mlflow';
import { locateRun } from '../aws/mlflow/locate';

/** An evaluation's `eval/*` numbers and where they were read, in the user's words. */
export interface EvaluationNumbers {
  metrics: Record<string, number>;
  /** `MLflow run <id>` or `ServiceOutput.EvaluationMetrics`; undefined when neither had numbers. */
  source?: string;
  /** Why the MLflow run could not be read, when it could not. */
  mlflowProblem?: string;
}

const numeric = (entries: Iterable<[string, unknown]>) =>
  Object.fromEntries([...entries].filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])));

/**
 * Where users read an evaluation's results: its MLflow run (found from `ServiceOutput.MlflowDetails`, else
 * `OutputDataConfig.MlflowConfig`), the latest value of each `eval/*` key. `ServiceOutput.EvaluationMetrics`, a field no
 * real output has shown, only when there is no run to read.
 */
export async function evaluationNumbers(
  aws: AwsClients,
  jobName: string,
  document: JobConfigDocument | undefined,
  signal?: AbortSignal,
): Promise<EvaluationNumbers> {
  const config = mlflowConfigOf(document);
  const resource = config ? parseMlflowArn(config.MlflowResourceArn) : undefined;
  let mlflowProblem: string | undefined;
  if (config && resource) {
    try {
      const located = await locateRun(mlflowClientFor(aws, resource), jobName, config, document?.ServiceOutput?.MlflowDetails, signal);
      const metrics = numeric((located.run.data.metrics ?? []).map((m) => [m.key, m.value] as [string, unknown]));
      if (Object.keys(metrics).some((k) => k.startsWith('eval/'))) return { metrics, source: `MLflow run ${located.runId}` };
      mlflowProblem = `its MLflow run ${located.runId} has no eval/* metrics`;
    } catch (error) {
      if (signal?.aborted) throw error;
      mlflowProblem = `its MLflow run could not be read (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  const fallback = numeric(Object.entries(document?.ServiceOutput?.EvaluationMetrics ?? {}));
  if (Object.keys(fallback).length) return { metrics: fallback, source: 'ServiceOutput.EvaluationMetrics', mlflowProblem };
  return {
    metrics: {},
    mlflowProblem: mlflowProblem ?? 'it names no MLflow run (OutputDataConfig.MlflowConfig) and has no EvaluationMetrics',
  };
}
