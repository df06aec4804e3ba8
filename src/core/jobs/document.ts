import { effectiveHyperparameters, nonDefaultHyperparameters, type EffectiveSetting } from './hyperparameters';
import { parseBaseModelArn } from './models';
import type { ServiceOutput } from './serviceOutput';
import type { MlflowConfig } from '../metrics/mlflow';
import type { JobCategory } from './status';
import { asFields } from '../text/json';

export interface JobModelConfig {
  BaseModelArn?: string;
  HyperParameters?: Record<string, string>;
  AcceptEula?: boolean;
}

/**
 * A training or evaluation JobConfigDocument as JSON: the parts the extension reads are typed,
 * the rest is kept as-is; the service's schema checks the whole.
 */
export interface JobConfigDocument {
  AgentConfig?: {
    BedrockAgentCoreConfig?: { AgentRuntimeArn?: string; Qualifier?: string };
    CustomAgentLambdaConfig?: { LambdaArn?: string };
  };
  InputDataConfig?: {
    ChannelName?: string;
    DataSource?: { S3DataSource?: { S3DataType?: string; S3Uri?: string }; DatasetSource?: { DatasetArn?: string } };
  }[];
  OutputDataConfig?: { S3OutputPath?: string; MlflowConfig?: Partial<MlflowConfig> };
  ModelPackageConfig?: {
    InputModelPackageArn?: string;
    OutputModelPackageGroupArn?: string;
    IntermediateCheckpointModelPackageGroupArn?: string;
  };
  TrainingConfig?: JobModelConfig & { MlflowConfig?: Partial<MlflowConfig> };
  EvaluationConfig?: JobModelConfig;
  StoppingCondition?: { MaxRuntimeInSeconds?: number };
  /** Only in DescribeJob's copy. */
  ServiceOutput?: ServiceOutput;
  [key: string]: unknown;
}

/** The document as an object, or undefined when it is missing or not a JSON object. */
export function parseConfigDocument(text: string | undefined): JobConfigDocument | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return asFields(value) as JobConfigDocument | undefined;
  } catch {
    return undefined;
  }
}

/** What the user chooses for a training job; the builder turns it into the service's document. */
interface TrainingJobSpec {
  runtimeArn: string;
  qualifier?: string;
  trainUri: string;
  validationUri?: string;
  outputPath: string;
  baseModelArn: string;
  mlflowArn?: string;
  experimentName?: string;
  /** Every chosen value; only those differing from the model's defaults are sent. */
  hyperparameters: Record<string, string>;
  outputModelPackageGroupArn?: string;
  intermediateCheckpointModelPackageGroupArn?: string;
  /** Continue training this adapter. */
  inputModelPackageArn?: string;
}

interface EvaluationJobSpec {
  runtimeArn: string;
  qualifier?: string;
  evaluationUri: string;
  outputPath: string;
  baseModelArn: string;
  mlflowArn?: string;
  experimentName?: string;
  runName?: string;
  /** Flat names the user set; only these are written, the service's documented defaults apply to the rest. */
  hyperparameters: Record<string, string>;
  /** The trained adapter to evaluate; absent to evaluate the base model. */
  adapterModelPackageArn?: string;
  maxRuntimeSeconds?: number;
}

/**
 * The SDK's evaluator writes StoppingCondition 86,400 s unless told otherwise and refuses more than 259,200 s (72 h):
 * https://github.com/aws/sagemaker-python-sdk/blob/04142370c66a6f6b7c540e73e75ac019a26580da/sagemaker-train/src/sagemaker/train/evaluate/multi_turn_rl_evaluator.py
 */
export const EVALUATION_MAX_RUNTIME = { defaultSeconds: 86_400, maxSeconds: 259_200 } as const;

/** The SDK evaluator's experiment when none is named: `mtrl-eval-<base model id>` (same file as above). */
export function defaultEvaluationExperiment(modelId: string | undefined): string {
  return `mtrl-eval-${modelId ?? 'default'}`;
}

function agentConfig(runtimeArn: string, qualifier = 'DEFAULT') {
  return { BedrockAgentCoreConfig: { AgentRuntimeArn: runtimeArn, Qualifier: qualifier } };
}

function channel(name: string, uri: string) {
  return { ChannelName: name, DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: uri } } };
}

export function buildTrainingDocument(spec: TrainingJobSpec): JobConfigDocument {
  const modelId = parseBaseModelArn(spec.baseModelArn)?.modelId;
  const packages = {
    ...(spec.inputModelPackageArn && { InputModelPackageArn: spec.inputModelPackageArn }),
    ...(spec.outputModelPackageGroupArn && { OutputModelPackageGroupArn: spec.outputModelPackageGroupArn }),
    ...(spec.intermediateCheckpointModelPackageGroupArn && {
      IntermediateCheckpointModelPackageGroupArn: spec.intermediateCheckpointModelPackageGroupArn,
    }),
  };
  return {
    AgentConfig: agentConfig(spec.runtimeArn, spec.qualifier),
    InputDataConfig: [channel('train', spec.trainUri), ...(spec.validationUri ? [channel('validation', spec.validationUri)] : [])],
    OutputDataConfig: { S3OutputPath: spec.outputPath },
    ...(Object.keys(packages).length > 0 && { ModelPackageConfig: packages }),
    TrainingConfig: {
      BaseModelArn: spec.baseModelArn,
      // The SDK omits MlflowConfig when the account has no MLflow app.
      ...(spec.mlflowArn && { MlflowConfig: { MlflowResourceArn: spec.mlflowArn, MlflowExperimentName: spec.experimentName || 'mtrl' } }),
      AcceptEula: true,
      HyperParameters: nonDefaultHyperparameters(spec.hyperparameters, modelId),
    },
  };
}

export function buildEvaluationDocument(spec: EvaluationJobSpec): JobConfigDocument {
  const modelId = parseBaseModelArn(spec.baseModelArn)?.modelId;
  const mlflow = spec.mlflowArn && {
    MlflowConfig: {
      MlflowResourceArn: spec.mlflowArn,
      MlflowExperimentName: spec.experimentName || defaultEvaluationExperiment(modelId),
      MlflowRunName: spec.runName || (spec.adapterModelPackageArn ? 'fine-tuned-model-eval' : 'base-model-eval'),
    },
  };
  return {
    AgentConfig: agentConfig(spec.runtimeArn, spec.qualifier),
    InputDataConfig: [channel('evaluation', spec.evaluationUri)],
    OutputDataConfig: { S3OutputPath: spec.outputPath, ...mlflow },
    EvaluationConfig: {
      BaseModelArn: spec.baseModelArn,
      AcceptEula: true,
      // Like the SDK's evaluator: only the values set; the service's documented defaults (temperature 0, concurrency 96…) apply to the rest.
      HyperParameters: Object.fromEntries(Object.entries(spec.hyperparameters).filter(([, v]) => v.trim() !== '')),
    },
    // Only a trained adapter has a model package; the base model is evaluated without one.
    ...(spec.adapterModelPackageArn && { ModelPackageConfig: { InputModelPackageArn: spec.adapterModelPackageArn } }),
    StoppingCondition: { MaxRuntimeInSeconds: spec.maxRuntimeSeconds ?? EVALUATION_MAX_RUNTIME.defaultSeconds },
  };
}

/** The facts the checks and the arithmetic read from any document, including hand-written ones. */
export interface DocumentFacts {
  runtimeArn?: string;
  lambdaArn?: string;
  /** S3 URI per channel name ("train", "validation", "evaluation"). */
  datasets: Record<string, string>;
  outputPath?: string;
  baseModelArn?: string;
  mlflowArn?: string;
  hyperparameters: Record<string, string>;
  inputModelPackageArn?: string;
}

function object(value: unknown): Record<string, unknown> {
  return asFields(value) ?? {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function documentFacts(category: JobCategory, document: JobConfigDocument): DocumentFacts {
  const agent = object(document.AgentConfig);
  const config = object(category === 'AgentRFT' ? document.TrainingConfig : document.EvaluationConfig);
  const output = object(document.OutputDataConfig);
  const datasets: Record<string, string> = {};
  for (const c of Array.isArray(document.InputDataConfig) ? document.InputDataConfig : []) {
    const name = text(object(c).ChannelName);
    const uri = text(object(object(object(c).DataSource).S3DataSource).S3Uri);
    if (name && uri) datasets[name] = uri;
  }
  const hyperparameters = Object.fromEntries(
    Object.entries(object(config.HyperParameters)).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
  return {
    runtimeArn: text(object(agent.BedrockAgentCoreConfig).AgentRuntimeArn),
    lambdaArn: text(object(agent.CustomAgentLambdaConfig).LambdaArn),
    datasets,
    outputPath: text(output.S3OutputPath),
    baseModelArn: text(config.BaseModelArn),
    mlflowArn: mlflowConfigOf(document)?.MlflowResourceArn,
    hyperparameters,
    inputModelPackageArn: text(object(document.ModelPackageConfig).InputModelPackageArn),
  };
}

/**
 * The settings the job runs with and where each comes from: hyperparameters (your file / service default) and, for an
 * evaluation, its stopping condition and experiment (the SDK's defaults when they equal them).
 */
export function effectiveSettings(
  category: JobCategory,
  document: JobConfigDocument,
  facts = documentFacts(category, document),
): EffectiveSetting[] {
  const modelId = facts.baseModelArn ? parseBaseModelArn(facts.baseModelArn)?.modelId : undefined;
  const settings = effectiveHyperparameters(category, facts.hyperparameters, modelId);
  if (category !== 'AgentRFTEvaluation') return settings;
  const runtime = object(document.StoppingCondition).MaxRuntimeInSeconds;
  if (typeof runtime === 'number')
    settings.push({
      name: 'StoppingCondition.MaxRuntimeInSeconds',
      value: String(runtime),
      source: runtime === EVALUATION_MAX_RUNTIME.defaultSeconds ? 'SDK default' : 'your file',
    });
  const experiment = mlflowConfigOf(document)?.MlflowExperimentName;
  if (experiment)
    settings.push({
      name: 'MlflowExperimentName',
      value: experiment,
      source: experiment === defaultEvaluationExperiment(modelId) ? 'SDK default' : 'your file',
    });
  return settings;
}

/** Where a job logs its metrics: `TrainingConfig.MlflowConfig` (the SDK, real jobs) or `OutputDataConfig.MlflowConfig` (evaluations, the AWS doc's training example). */
export function mlflowConfigOf(document: JobConfigDocument | undefined): MlflowConfig | undefined {
  if (!document) return undefined;
  for (const place of [object(document.TrainingConfig).MlflowConfig, object(document.OutputDataConfig).MlflowConfig]) {
    const config = object(place);
    const arn = text(config.MlflowResourceArn);
    if (arn)
      return { MlflowResourceArn: arn, MlflowExperimentName: text(config.MlflowExperimentName), MlflowRunName: text(config.MlflowRunName) };
  }
  return undefined;
}

/** The document the user wrote, without what the service adds to DescribeJob's copy. */
export function withoutServiceOutput(document: JobConfigDocument): JobConfigDocument {
  return Object.fromEntries(Object.entries(document).filter(([key]) => key !== 'ServiceOutput'));
}
