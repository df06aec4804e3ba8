import { EVALUATION_MAX_RUNTIME } from './document';
import { hyperparameterProblem, hyperparameterSpecs, SDK_EVALUATOR_NAMES } from './hyperparameters';
import { modelsInRegion, parseBaseModelArn, type BaseModel } from './models';
import { JOB_NAME_PATTERN } from './reference';
import type { JobCategory } from './status';
import { trainerRuleProblems } from './trainerRules';
import type { CheckId, CheckLevel, CheckResult } from './checkResult';

export type { CheckLevel, CheckResult } from './checkResult';

const pass = (check: CheckId, message: string, key?: string): CheckResult => ({ check, level: 'pass', message, key });
const warn = (check: CheckId, message: string, fix?: string, key?: string): CheckResult => ({ check, level: 'warn', message, fix, key });
const fail = (check: CheckId, message: string, fix?: string, key?: string): CheckResult => ({ check, level: 'fail', message, fix, key });

export function jobNameProblem(name: string): string | undefined {
  if (!name) return 'Enter a job name.';
  if (name.length > 63) return `A job name has at most 63 characters; this one has ${name.length}.`;
  if (!JOB_NAME_PATTERN.test(name)) return 'A job name uses letters, digits and hyphens, and starts and ends with a letter or digit.';
  return undefined;
}

export function checkJobName(name: string, existingNames: ReadonlySet<string>): CheckResult {
  const problem = jobNameProblem(name);
  if (problem) return fail('jobName', problem, 'Rename the job.', 'JobName');
  if (existingNames.has(name))
    return fail(
      'jobName',
      `A job named ${name} already exists in this category and region.`,
      'Pick another name, e.g. with a date suffix.',
      'JobName',
    );
  return pass('jobName', `Job name ${name} is free.`, 'JobName');
}

/** The outcome of validating the document against the service's JSON Schema (ajv errors already as text). */
export function checkSchema(version: string, errors: readonly string[] | undefined, unavailable?: string): CheckResult {
  if (unavailable)
    return warn(
      'schema',
      `Could not fetch the config schema ${version}: ${unavailable}`,
      'Check the connection; the service validates again at CreateJob.',
      'JobConfigDocument',
    );
  if (!errors || errors.length === 0) return pass('schema', `Document valid against the service's schema ${version}.`, 'JobConfigDocument');
  return fail(
    'schema',
    `Document invalid against schema ${version}: ${errors.slice(0, 5).join('; ')}${errors.length > 5 ? ` (+${errors.length - 5} more)` : ''}.`,
    'Fix the named fields.',
    'JobConfigDocument',
  );
}

export function checkHyperparameters(category: JobCategory, values: Record<string, string>, maxRuntimeSeconds?: unknown): CheckResult {
  const specs = new Map(hyperparameterSpecs(category).map((s) => [s.name, s]));
  const problems: string[] = [];
  const runtime = Number(maxRuntimeSeconds);
  if (
    category === 'AgentRFTEvaluation' &&
    maxRuntimeSeconds !== undefined &&
    !(runtime > 0 && runtime <= EVALUATION_MAX_RUNTIME.maxSeconds)
  )
    problems.push(
      `StoppingCondition.MaxRuntimeInSeconds must be in (0, ${EVALUATION_MAX_RUNTIME.maxSeconds}] (72 h); got ${String(maxRuntimeSeconds)}`,
    );
  problems.push(...trainerRuleProblems(values));
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const accepted = category === 'AgentRFTEvaluation' ? SDK_EVALUATOR_NAMES[name] : undefined;
    if (accepted)
      problems.push(`${name} is the SDK evaluator's name, which the service may drop or refuse; write the flat name ${accepted}`);
    else if (!specs.has(name)) unknown.push(name);
    else {
      const problem = hyperparameterProblem(specs.get(name)!, value);
      if (problem) problems.push(problem.replace(/\.$/, ''));
    }
  }
  // Only a pass_k_values the file sets is compared: the service's default list serves any group size.
  const evalK = category === 'AgentRFTEvaluation' && values.pass_k_values !== undefined ? passKProblem(values) : undefined;
  if (evalK) problems.push(evalK);
  if (problems.length)
    return fail(
      'hyperparameters',
      `Hyperparameters: ${problems.join('; ')}.`,
      'Correct the values; hover a name in a job file to see its range.',
      'HyperParameters',
    );
  if (unknown.length)
    return warn(
      'hyperparameters',
      `Unknown hyperparameter${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: the service may reject ${unknown.length > 1 ? 'them' : 'it'}.`,
      `Known names: ${[...specs.keys()].join(', ')}.`,
      'HyperParameters',
    );
  return pass(
    'hyperparameters',
    `Hyperparameters within their ranges${Object.keys(values).length ? ` (${Object.keys(values).join(', ')})` : ' (all defaults)'}.`,
    'HyperParameters',
  );
}

function passKProblem(values: Record<string, string>): string | undefined {
  const group = Number(values.eval_group_size ?? '1');
  try {
    const ks: unknown = JSON.parse(values.pass_k_values ?? '[1]');
    const tooBig = Array.isArray(ks) ? ks.filter((k) => typeof k === 'number' && k > group) : [];
    return tooBig.length ? `pass_k_values ${tooBig.join(', ')} exceed eval_group_size ${group}` : undefined;
  } catch {
    return undefined;
  }
}

/** What was learnt about one dataset channel by reading it from S3 with the dataset checks. */
export interface DatasetFacts {
  channel: string;
  uri: string;
  /** Rows read; undefined when the object could not be read. */
  rows?: number;
  /** Why it could not be read (missing object, access denied…). */
  unreadable?: string;
  /** Error findings of the dataset checks, as sentences. */
  errors: string[];
}

export function checkDatasets(
  datasets: readonly DatasetFacts[],
  batchSize: number,
  overlap?: number,
  category: JobCategory = 'AgentRFT',
): CheckResult {
  if (datasets.length === 0)
    return fail(
      'datasets',
      'No dataset channel in the document.',
      category === 'AgentRFT' ? 'Add a "train" channel.' : 'Add an "evaluation" channel.',
      'InputDataConfig',
    );
  const fails: string[] = [];
  const warns: string[] = [];
  for (const d of datasets) {
    if (d.unreadable !== undefined) fails.push(`${d.channel} (${d.uri}) cannot be read: ${d.unreadable}`);
    else if (d.errors.length) fails.push(`${d.channel}: ${d.errors.slice(0, 3).join('; ')}`);
    else if (d.channel === 'train' && (d.rows ?? 0) <= batchSize)
      fails.push(`train has ${d.rows} rows; the service needs more than global_batch_size ${batchSize}`);
    else if (d.channel === 'train' && (d.rows ?? 0) < 10 * batchSize)
      warns.push(`train has ${d.rows} rows; 10× global_batch_size (${10 * batchSize}) is recommended`);
  }
  if (overlap) fails.push(`${overlap} row${overlap > 1 ? 's' : ''} appear in both train and validation`);
  const summary = datasets.map((d) => `${d.channel} ${d.rows ?? '?'} rows`).join(', ');
  if (fails.length)
    return fail(
      'datasets',
      `Datasets: ${fails.join('; ')}.`,
      'Fix the files with "MTRL: Validate Dataset" and upload them again.',
      'InputDataConfig',
    );
  if (warns.length)
    return warn('datasets', `Datasets: ${warns.join('; ')}.`, 'More rows give the policy more distinct tasks.', 'InputDataConfig');
  return pass('datasets', `Datasets readable and valid (${summary}${datasets.length > 1 ? ', no overlap' : ''}).`, 'InputDataConfig');
}

/** What AgentCore says about the runtime named in the document. */
interface RuntimeFacts {
  arn: string;
  status?: string;
  unreadable?: string;
  /** The running jobs that invoke it now (core/resources runningUsers, the banner's and cleanup's answer). */
  usedBy?: readonly { name: string }[];
}

export function checkRuntime(runtime: RuntimeFacts | undefined, jobRegion: string): CheckResult {
  if (!runtime)
    return fail(
      'runtime',
      'The document names no AgentCore runtime.',
      'Set AgentConfig.BedrockAgentCoreConfig.AgentRuntimeArn.',
      'AgentRuntimeArn',
    );
  const region = /^arn:aws[a-z-]*:bedrock-agentcore:([a-z0-9-]+):/.exec(runtime.arn)?.[1];
  if (!region)
    return fail(
      'runtime',
      `${runtime.arn} is not an AgentCore runtime ARN.`,
      'Use arn:aws:bedrock-agentcore:<region>:<account>:runtime/<id>.',
      'AgentRuntimeArn',
    );
  if (region !== jobRegion)
    return fail(
      'runtime',
      `The runtime is in ${region} but the job runs in ${jobRegion}; they must be in the same region.`,
      `Launch in ${region}, or deploy the agent to ${jobRegion}.`,
      'AgentRuntimeArn',
    );
  if (runtime.unreadable)
    return fail(
      'runtime',
      `The runtime could not be read: ${runtime.unreadable}`,
      'Check the ARN, or deploy it with `agentcore deploy`.',
      'AgentRuntimeArn',
    );
  if (runtime.status !== 'READY')
    return fail(
      'runtime',
      `The runtime is ${runtime.status ?? 'in an unknown state'}, not READY.`,
      'Wait for the deployment to finish, or redeploy with `agentcore deploy`.',
      'AgentRuntimeArn',
    );
  // Not a warning: jobs share a runtime well; the note is for whoever would redeploy it meanwhile.
  const users = runtime.usedBy?.map((j) => j.name) ?? [];
  const shared = users.length
    ? `; running job${users.length > 1 ? 's' : ''} ${users.join(', ')} use${users.length > 1 ? '' : 's'} it too: redeploy it only after ${users.length > 1 ? 'they finish' : 'it finishes'}`
    : '';
  return pass('runtime', `Runtime READY in ${region}${shared}.`, 'AgentRuntimeArn');
}

export function checkModel(baseModelArn: string | undefined, region: string, models: readonly BaseModel[]): CheckResult {
  const parsed = baseModelArn ? parseBaseModelArn(baseModelArn) : undefined;
  if (!parsed)
    return fail(
      'model',
      `${baseModelArn ?? 'No base model'} is not a public hub model ARN.`,
      'Use arn:aws:sagemaker:<region>:aws:hub-content/SageMakerPublicHub/Model/<model-id>.',
      'BaseModelArn',
    );
  if (parsed.region !== region)
    return fail(
      'model',
      `The base model ARN names ${parsed.region} but the job runs in ${region}.`,
      `Use the ${region} ARN of the model.`,
      'BaseModelArn',
    );
  const offered = modelsInRegion(models, region);
  const model = offered.find((m) => m.id === parsed.modelId);
  if (!model)
    return fail(
      'model',
      `${parsed.modelId} is not offered for MTRL in ${region} (offered: ${offered.map((m) => m.id).join(', ') || 'none'}).`,
      'Pick an offered model, or add it to the mtrl.launch.models setting if the hub lists it.',
      'BaseModelArn',
    );
  return pass('model', `${model.name} is offered in ${region}.`, 'BaseModelArn');
}

/** One evaluation job at a time per account by default. */
export function checkEvaluations(category: JobCategory, running: readonly string[]): CheckResult | undefined {
  if (category !== 'AgentRFTEvaluation') return undefined;
  if (running.length)
    return warn(
      'evaluations',
      `Evaluation ${running.join(', ')} is still running; accounts run one evaluation at a time by default, so this one may be refused or wait.`,
      'Wait for it to finish, or ask for a higher quota.',
    );
  return pass('evaluations', 'No other evaluation job is running.');
}

/** Errors block the launch; warnings ask first. */
export function verdict(results: readonly CheckResult[]): CheckLevel {
  return results.some((r) => r.level === 'fail') ? 'fail' : results.some((r) => r.level === 'warn') ? 'warn' : 'pass';
}

export function describeCheck(r: CheckResult): string {
  const mark = r.level === 'pass' ? '✓' : r.level === 'warn' ? '⚠' : '✗';
  return `${mark} ${r.message}${r.fix && r.level !== 'pass' ? ` Fix: ${r.fix}` : ''}`;
}
