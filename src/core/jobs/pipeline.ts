import type { JobConfigDocument } from './document';

/** Which model an evaluation of the SDK's base-vs-fine-tuned pipeline scored. */
export type PipelineRole = 'base' | 'fine-tuned';

/** An evaluation job one step of an SDK evaluation pipeline made: `pipelines-<execution>-<step>-<suffix>`. */
export interface PipelineEvaluation {
  execution: string;
  /** The step name as the job name carries it (the service cuts it: `EvaluateFineTunedMod`). */
  step: string;
  role?: PipelineRole;
}

const PIPELINE_JOB = /^pipelines-([a-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9]+)$/;

/** The model a pipeline step evaluated: from the step name, else from the document (an input model package is the fine-tuned one). */
function roleOf(step: string, document?: JobConfigDocument): PipelineRole | undefined {
  if (/^EvaluateBase/i.test(step)) return 'base';
  if (/^EvaluateFine/i.test(step)) return 'fine-tuned';
  if (!document?.EvaluationConfig) return undefined;
  return document.ModelPackageConfig?.InputModelPackageArn ? 'fine-tuned' : 'base';
}

/** The pipeline execution and role of an SDK-made evaluation, or undefined for a job the user named. */
export function pipelineEvaluationOf(jobName: string, document?: JobConfigDocument): PipelineEvaluation | undefined {
  const m = PIPELINE_JOB.exec(jobName);
  if (!m) return undefined;
  return { execution: m[1], step: m[2], role: roleOf(m[2], document) };
}
