import type { JobConfigDocument } from './document';
import { parseBaseModelArn } from './models';
import type { CheckResult } from './checkResult';
import type { JobCategory } from './status';

/**
 * The SDK trainer's own checks before CreateJob (sagemaker-python-sdk `multi_turn_rl_trainer.py` and
 * `common_utils/finetune_utils.py`, docs/service-facts.md "The SDK trainer's checks").
 */

/** `MAX_HYPERPARAMETERS` in the SDK's trainer. */
export const MAX_HYPERPARAMETERS = 50;

/** The characters the SDK allows in a hyperparameter value (`_validate_hyperparameter_values`). */
const VALUE_PATTERN = /^[a-zA-Z0-9/_.:,\-\s'"[\]]*$/;

/** The first character of a value that the SDK's rule refuses, shown so that a control character is visible. */
export function forbiddenCharacter(value: string): string | undefined {
  if (VALUE_PATTERN.test(value)) return undefined;
  const bad = [...value].find((c) => !VALUE_PATTERN.test(c));
  return bad === undefined ? undefined : JSON.stringify(bad);
}

/** Problems with the count and the characters of the hyperparameters, as sentence parts (no final stop). */
export function trainerRuleProblems(values: Record<string, string>): string[] {
  const problems: string[] = [];
  const count = Object.keys(values).length;
  if (count > MAX_HYPERPARAMETERS)
    problems.push(`${count} hyperparameters are set; the SDK's limit is ${MAX_HYPERPARAMETERS} (MAX_HYPERPARAMETERS)`);
  for (const [name, value] of Object.entries(values)) {
    const bad = forbiddenCharacter(value);
    if (bad)
      problems.push(
        `${name} "${value}" contains the character ${bad}; values may hold only letters, digits, spaces and / _ . : , - ' " [ ]`,
      );
  }
  return problems;
}

/** A model package group as the job will use it: the document's ARN, or the name the SDK gets or creates. */
interface PackageGroup {
  name: string;
  source: 'your file' | 'SDK default';
}

function groupName(arn: string): string {
  return arn.slice(arn.lastIndexOf('/') + 1);
}

/** The output and checkpoint model package groups: the document's, else the SDK's `{model}-mtrl-mpg` / `{model}-mtrl-checkpoint-mpg`. */
export function modelPackageGroups(document: JobConfigDocument, baseModelArn?: string): { output: PackageGroup; checkpoint: PackageGroup } {
  const model = (baseModelArn && parseBaseModelArn(baseModelArn)?.modelId) || '<model>';
  const config = document.ModelPackageConfig ?? {};
  const pick = (arn: unknown, fallback: string): PackageGroup =>
    typeof arn === 'string' && arn ? { name: groupName(arn), source: 'your file' } : { name: fallback, source: 'SDK default' };
  return {
    output: pick(config.OutputModelPackageGroupArn, `${model}-mtrl-mpg`),
    checkpoint: pick(config.IntermediateCheckpointModelPackageGroupArn, `${model}-mtrl-checkpoint-mpg`),
  };
}

/** Training: the two groups named in the review, an error when they are the same group (the SDK refuses it). */
export function checkModelPackageGroups(
  category: JobCategory,
  document: JobConfigDocument,
  baseModelArn?: string,
): CheckResult | undefined {
  if (category !== 'AgentRFT') return undefined;
  const { output, checkpoint } = modelPackageGroups(document, baseModelArn);
  const line = `output ${output.name} (${output.source}), checkpoints ${checkpoint.name} (${checkpoint.source})`;
  if (output.name === checkpoint.name)
    return {
      check: 'modelPackages',
      level: 'fail',
      message: `Model package groups: the output and checkpoint groups are the same, ${output.name}; the SDK refuses that.`,
      fix: 'Give ModelPackageConfig.IntermediateCheckpointModelPackageGroupArn another group, or leave it out.',
      key: 'ModelPackageConfig',
    };
  return { check: 'modelPackages', level: 'pass', message: `Model package groups: ${line}.`, key: 'ModelPackageConfig' };
}

/** Evaluation: the SDK's evaluator always sends `AcceptEula: true`; a document without it may be refused for a gated model. */
export function checkEvaluationEula(category: JobCategory, document: JobConfigDocument): CheckResult | undefined {
  if (category !== 'AgentRFTEvaluation') return undefined;
  if (document.EvaluationConfig?.AcceptEula === true)
    return { check: 'eula', level: 'pass', message: 'EvaluationConfig.AcceptEula is true, as the SDK always sends it.', key: 'AcceptEula' };
  return {
    check: 'eula',
    level: 'fail',
    message: 'EvaluationConfig.AcceptEula is not true; the SDK always sends true for evaluations.',
    fix: 'Set "AcceptEula": true in EvaluationConfig.',
    key: 'AcceptEula',
  };
}
