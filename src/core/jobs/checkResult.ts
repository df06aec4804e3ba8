/** What a pre-flight check gives back, shared by the checks in preflight.ts and trainerRules.ts. */

export type CheckLevel = 'pass' | 'warn' | 'fail';

/** One pre-flight line: what was checked, how it went and, unless it passed, the fix. */
export interface CheckResult {
  check: CheckId;
  level: CheckLevel;
  message: string;
  fix?: string;
  /** The job-file key the line is about, so the editor can underline it. */
  key?: string;
}

export type CheckId =
  // The file's own text (a key given twice).
  | 'jobFile'
  | 'jobName'
  | 'schema'
  | 'hyperparameters'
  | 'datasets'
  | 'role'
  | 'runtime'
  | 'model'
  | 'evaluations'
  | 'smoke'
  // The SDK trainer's checks beyond the hyperparameter table (trainerRules.ts).
  | 'modelPackages'
  | 'eula'
  // The SDK's notification rule: its SNS topic and EventBridge access (notifications.ts).
  | 'notifications'
  // The account's side: its MTRL quota and its MLflow app.
  | 'quota'
  | 'mlflow';
