import type { CheckResult } from './preflight';

/** The oldest MLflow an MTRL job logs to (the SageMaker SDK's MIN_MLFLOW_VERSION; it makes a new app for an older one). */
export const MIN_MLFLOW_VERSION = '3.10';

/** True when `version` is at least 3.10, compared number by number as the SDK does ("3.4.0" < "3.10" ≤ "3.10.1"). */
export function meetsMlflowMinimum(version: string | undefined, minimum = MIN_MLFLOW_VERSION): boolean {
  if (!version) return false;
  const parts = version.split('.').map(Number);
  const min = minimum.split('.').map(Number);
  if (parts.some((n) => !Number.isInteger(n))) return false;
  for (let i = 0; i < Math.max(parts.length, min.length); i++) {
    const a = parts[i];
    const b = min[i];
    if (a === undefined) return false;
    if (b === undefined || a > b) return true;
    if (a < b) return false;
  }
  return true;
}

/** "MLflow 3.4.0 — below 3.10, MTRL cannot log to it": the wizard's mark for an app too old. */
export function mlflowVersionNote(version: string | undefined): string | undefined {
  if (meetsMlflowMinimum(version)) return undefined;
  return `MLflow ${version ?? 'of unknown version'}: MTRL needs ${MIN_MLFLOW_VERSION} or later`;
}

/** What the MLflow app of the document is, as ListMlflowApps says (undefined: not listed in the region). */
export interface MlflowAppFacts {
  arn: string;
  name?: string;
  mlflowVersion?: string;
}

/** The MLflow line of the pre-flight: an app below 3.10 is refused with the reason; no MLflow config, no line. */
export function checkMlflowApp(arn: string | undefined, app: MlflowAppFacts | undefined, listed: boolean): CheckResult | undefined {
  if (!arn) return undefined;
  const key = 'MlflowResourceArn';
  if (!app)
    return listed
      ? {
          check: 'mlflow',
          level: 'fail',
          message: `MLflow app ${arn} is not in this account and region.`,
          fix: 'Pick an app from ListMlflowApps (the wizard lists them), or create one of MLflow 3.10 or later.',
          key,
        }
      : { check: 'mlflow', level: 'pass', message: `MLflow app ${arn} not checked.`, key };
  const name = app.name ?? arn.split('/').pop() ?? arn;
  if (!meetsMlflowMinimum(app.mlflowVersion))
    return {
      check: 'mlflow',
      level: 'fail',
      message: `MLflow app ${name} runs MLflow ${app.mlflowVersion ?? '(version unknown)'}; MTRL needs ${MIN_MLFLOW_VERSION} or later.`,
      fix: `Pick an app of MLflow ${MIN_MLFLOW_VERSION} or later, or create one (the SageMaker SDK creates a new app rather than use an older one).`,
      key,
    };
  return { check: 'mlflow', level: 'pass', message: `MLflow app ${name} runs MLflow ${app.mlflowVersion}.`, key };
}
