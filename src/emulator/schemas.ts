import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { EVALUATION_MAX_RUNTIME } from '../core/jobs/document';
import { hyperparameterProblem, hyperparameterSpecs, SDK_EVALUATOR_NAMES } from '../core/jobs/hyperparameters';
import type { JobCategory } from '../core/jobs/status';

/** The config schemas the emulated service serves and enforces, written by us from the documented document shapes. */
export const SCHEMA_VERSION = '1.0.0';

// The names the service accepts: the one documented table (src/core/jobs/hyperparameters.ts), as the guide lists them.
const TRAINING_NAMES = hyperparameterSpecs('AgentRFT').map((s) => s.name);
const EVALUATION_NAMES = hyperparameterSpecs('AgentRFTEvaluation').map((s) => s.name);

const ARN_RUNTIME = '^arn:aws[a-z-]*:bedrock-agentcore:[a-z0-9-]+:[0-9]{12}:runtime/[a-zA-Z0-9_-]+$';
const ARN_MLFLOW = '^arn:[a-z0-9-.]+:sagemaker:[^:]+:[^:]+:mlflow-app/.+$';
const S3_URI = '^s3://[^/]+(/.*)?$';

const str = (pattern?: string) => (pattern ? { type: 'string', pattern } : { type: 'string', minLength: 1 });
const closed = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  required,
});

const agentConfig = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
  properties: {
    BedrockAgentCoreConfig: closed({ AgentRuntimeArn: str(ARN_RUNTIME), Qualifier: str() }, ['AgentRuntimeArn']),
    CustomAgentLambdaConfig: closed({ LambdaArn: str('^arn:aws[a-z-]*:lambda:') }, ['LambdaArn']),
  },
};

const channel = (names: string[]) =>
  closed(
    {
      ChannelName: { type: 'string', enum: names },
      DataSource: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        maxProperties: 1,
        properties: {
          S3DataSource: closed({ S3DataType: { type: 'string', enum: ['S3Prefix', 'S3Object'] }, S3Uri: str(S3_URI) }, [
            'S3DataType',
            'S3Uri',
          ]),
          DatasetSource: closed({ DatasetArn: str() }, ['DatasetArn']),
        },
      },
    },
    ['ChannelName', 'DataSource'],
  );

const hyperParameters = (names: string[]) => ({
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
});

const mlflow = closed({ MlflowResourceArn: str(ARN_MLFLOW), MlflowExperimentName: str(), MlflowRunName: str() }, ['MlflowResourceArn']);
// The SDK sends false for models without a EULA to accept.
const acceptEula = { type: 'boolean' };

const common = {
  AgentConfig: agentConfig,
  VpcConfig: { type: 'object' },
  // DescribeJob's copy carries ServiceOutput; accepting it lets a described document be resubmitted.
  ServiceOutput: { type: 'object' },
};

const TRAINING_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'AgentRFT JobConfigDocument 1.0.0',
  ...closed(
    {
      ...common,
      InputDataConfig: { type: 'array', minItems: 1, maxItems: 2, items: channel(['train', 'validation']) },
      // MlflowConfig sits under TrainingConfig (SDK, real jobs) or under OutputDataConfig (the AWS doc's example).
      OutputDataConfig: closed({ S3OutputPath: str(S3_URI), KmsKeyArn: str(), MlflowConfig: mlflow }, ['S3OutputPath']),
      ModelPackageConfig: closed({
        OutputModelPackageGroupArn: str(),
        IntermediateCheckpointModelPackageGroupArn: str(),
        InputModelPackageArn: str(),
      }),
      TrainingConfig: closed(
        {
          BaseModelArn: str('^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:aws:hub-content/'),
          MlflowConfig: mlflow,
          AcceptEula: acceptEula,
          HyperParameters: hyperParameters(TRAINING_NAMES),
        },
        ['BaseModelArn', 'AcceptEula'],
      ),
    },
    ['AgentConfig', 'InputDataConfig', 'OutputDataConfig', 'TrainingConfig'],
  ),
};

const EVALUATION_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'AgentRFTEvaluation JobConfigDocument 1.0.0',
  ...closed(
    {
      ...common,
      InputDataConfig: { type: 'array', minItems: 1, maxItems: 1, items: channel(['evaluation']) },
      OutputDataConfig: closed({ S3OutputPath: str(S3_URI), KmsKeyArn: str(), MlflowConfig: mlflow }, ['S3OutputPath']),
      ModelPackageConfig: closed({ InputModelPackageArn: str() }, ['InputModelPackageArn']),
      EvaluationConfig: closed(
        {
          BaseModelArn: str('^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:aws:hub-content/'),
          AcceptEula: acceptEula,
          HyperParameters: hyperParameters(EVALUATION_NAMES),
        },
        ['BaseModelArn', 'AcceptEula'],
      ),
      StoppingCondition: closed({ MaxRuntimeInSeconds: { type: 'integer', minimum: 1, maximum: EVALUATION_MAX_RUNTIME.maxSeconds } }),
    },
    ['AgentConfig', 'InputDataConfig', 'OutputDataConfig', 'EvaluationConfig'],
  ),
};

export const SCHEMAS: Record<string, Record<string, unknown>> = { AgentRFT: TRAINING_SCHEMA, AgentRFTEvaluation: EVALUATION_SCHEMA };

const validators = new Map<string, ValidateFunction>();

/** The problems of a document as one sentence per field, empty when it is valid. */
export function validateDocument(category: string, document: unknown): string[] {
  let validate = validators.get(category);
  if (!validate) {
    validate = new Ajv({ allErrors: true, strict: false, verbose: true }).compile(SCHEMAS[category]);
    validators.set(category, validate);
  }
  if (validate(document)) return [];
  const problems = new Set<string>();
  for (const error of validate.errors ?? []) problems.add(describe(error, category));
  return [...problems];
}

function describe(e: ErrorObject, category: string): string {
  const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'JobConfigDocument';
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') {
    const field = String(params.additionalProperty);
    if (where.endsWith('HyperParameters')) {
      const names = category === 'AgentRFT' ? TRAINING_NAMES : EVALUATION_NAMES;
      const hint = SDK_EVALUATOR_NAMES[field] ? ` (use ${SDK_EVALUATOR_NAMES[field]})` : '';
      return `${where}: unsupported hyperparameter '${field}'${hint}; accepted names: ${names.join(', ')}`;
    }
    return `${where}: unexpected field '${field}'`;
  }
  if (e.keyword === 'required') return `${where}: missing required field '${String(params.missingProperty)}'`;
  if (e.keyword === 'pattern') return `${where}: '${String(e.data)}' does not match ${String(params.pattern)}`;
  if (e.keyword === 'enum') return `${where}: must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
  return `${where}: ${e.message ?? e.keyword}`;
}

/** Values outside the documented ranges, as CreateJob refuses them (the schema checks names only: values are strings). */
export function hyperparameterRangeProblems(category: JobCategory, values: Record<string, unknown>): string[] {
  const specs = new Map(hyperparameterSpecs(category).map((s) => [s.name, s]));
  return Object.entries(values).flatMap(([name, value]) => {
    const spec = specs.get(name);
    const problem = spec && typeof value === 'string' ? hyperparameterProblem(spec, value) : undefined;
    return problem ? [problem.replace(/\.$/, '')] : [];
  });
}
