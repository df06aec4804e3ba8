// No vscode import: the pre-flight runs in plain Node too, so the emulator tests drive it over HTTP.
import type { AwsClients } from '../../aws/clients';
import { getAgentRuntime } from '../../aws/agentcore';
import { runtimeIdFromArn } from '../../core/agentcore/runtimeArn';
import { explainerFor } from '../../aws/errors';
import { getLambdaFunction, invokeLambda } from '../../aws/lambda';
import { getRole, roleNameFromArn } from '../../aws/iam';
import { describeJobSchemaVersion, listJobs } from '../../aws/sagemaker';
import { documentFacts, type DocumentFacts } from '../../core/jobs/document';
import type { DocumentSchemas } from '../../core/jobs/documentSchema';
import { defaultHyperparameters } from '../../core/jobs/hyperparameters';
import type { JobFile } from '../../core/jobs/jobfile';
import { parseBaseModelArn, type BaseModel } from '../../core/jobs/models';
import {
  checkDatasets,
  checkEvaluations,
  checkHyperparameters,
  checkJobName,
  checkModel,
  checkRuntime,
  checkSchema,
  type CheckResult,
  type DatasetFacts,
} from '../../core/jobs/preflight';
import { checkLambdaAgent, checkLambdaSmoke, lambdaSmokeRequest } from '../../core/jobs/lambdaAgent';
import { checkRoleTrust } from '../../core/jobs/roleTrust';
import { checkEvaluationEula, checkModelPackageGroups } from '../../core/jobs/trainerRules';
import { mlflowCheck, quotaCheck } from './accountChecks';
import { notificationsCheck } from './notifications';
import { checkSmoke, type SmokeResults } from '../../core/smoke/record';
import { runningUsers } from '../../core/resources/references';
import { loadRunningJobs } from '../resources/jobs';

/** What the pre-flight needs besides the job file: clients, caches and what other features know. */
export interface PreflightDeps {
  aws: AwsClients;
  schemas: DocumentSchemas;
  /** Models offered in a region (hub, else static table, plus the setting). */
  models(region: string, signal?: AbortSignal): Promise<readonly BaseModel[]>;
  /** Reads and checks each dataset from S3; overlap counts rows shared by train and validation. */
  datasets(channels: Record<string, string>, batchSize: number, signal?: AbortSignal): Promise<{ facts: DatasetFacts[]; overlap?: number }>;
  smokeResults?: SmokeResults;
  /** Call a bring-your-own-agent Lambda once with the documented request (it costs one invocation). */
  lambdaSmoke?: boolean;
}

export interface PreflightOutcome {
  results: CheckResult[];
  /** Rows per channel, for the arithmetic. */
  rows: Record<string, number | undefined>;
}

/** Every pre-flight check, run in parallel; a check that cannot run says so as its own line, never throws. */
export async function runPreflight(
  job: JobFile,
  deps: PreflightDeps,
  signal?: AbortSignal,
  facts: DocumentFacts = documentFacts(job.JobCategory, job.JobConfigDocument),
): Promise<PreflightOutcome> {
  const region = job.Region;
  const sagemaker = deps.aws.sagemaker(region);
  const modelId = facts.baseModelArn ? parseBaseModelArn(facts.baseModelArn)?.modelId : undefined;
  const batchSize = Number(facts.hyperparameters.global_batch_size ?? defaultHyperparameters('AgentRFT', modelId).global_batch_size);
  const explain = explainerFor(() => deps.aws.current);
  const say = (error: unknown, action: string) => explain(error, action, region);
  const rows: Record<string, number | undefined> = {};

  const jobName = async (): Promise<CheckResult> => {
    const taken = new Set<string>();
    for await (const j of listJobs(sagemaker, { JobCategory: job.JobCategory, NameContains: job.JobName }, signal))
      if (j.JobName) taken.add(j.JobName);
    return checkJobName(job.JobName, taken);
  };

  const schema = async (): Promise<CheckResult> => {
    const version = job.JobConfigSchemaVersion;
    try {
      if (!deps.schemas.has(job.JobCategory, version)) {
        const fetched = await describeJobSchemaVersion(sagemaker, job.JobCategory, version, signal);
        deps.schemas.add(job.JobCategory, version, fetched.schema);
      }
    } catch (error) {
      return checkSchema(version, undefined, say(error, `Fetching schema ${version}`));
    }
    return checkSchema(version, deps.schemas.validate(job.JobCategory, version, job.JobConfigDocument));
  };

  const datasets = async (): Promise<CheckResult> => {
    const { facts: read, overlap } = await deps.datasets(facts.datasets, batchSize, signal);
    for (const d of read) rows[d.channel] = d.rows;
    return checkDatasets(read, job.JobCategory === 'AgentRFT' ? batchSize : 1, overlap, job.JobCategory);
  };

  const role = async (): Promise<CheckResult> => {
    const name = roleNameFromArn(job.RoleArn);
    if (!name) return checkRoleTrust(job.RoleArn, undefined, 'it is not an IAM role ARN (arn:aws:iam::<account>:role/<name>)');
    try {
      const info = await getRole(deps.aws.iam(), name, signal);
      return checkRoleTrust(job.RoleArn, info.trustPolicy?.Statement);
    } catch (error) {
      return checkRoleTrust(job.RoleArn, undefined, say(error, `Reading role ${name}`));
    }
  };

  // A Lambda call that is denied or throttled says why it was not checked: the job may still have the access the caller lacks.
  const notChecked = (error: unknown, action: string): string | undefined => {
    const { kind, sentence } = explain.explained(error, action, region);
    return kind === 'access-denied' ? `permission: ${sentence}` : kind === 'throttled' ? `throttled: ${sentence}` : undefined;
  };
  const lambdaRegion = (arn: string) => /:lambda:([a-z0-9-]+):/.exec(arn)?.[1] ?? region;

  const lambda = async (arn: string): Promise<CheckResult> => {
    try {
      const found = await getLambdaFunction(deps.aws.lambda(lambdaRegion(arn)), arn, signal);
      return checkLambdaAgent({ arn, timeoutSeconds: found.timeoutSeconds }, region);
    } catch (error) {
      const why = notChecked(error, 'Reading the agent Lambda');
      return checkLambdaAgent(why ? { arn, notChecked: why } : { arn, unreadable: say(error, 'Reading the agent Lambda') }, region);
    }
  };

  const lambdaSmoke = async (arn: string): Promise<CheckResult> => {
    try {
      return checkLambdaSmoke(await invokeLambda(deps.aws.lambda(lambdaRegion(arn)), arn, lambdaSmokeRequest(arn), signal));
    } catch (error) {
      const why = notChecked(error, 'Calling the agent Lambda');
      if (why) return checkLambdaSmoke({ notChecked: why });
      return { check: 'smoke', level: 'fail', message: say(error, 'Calling the agent Lambda'), key: 'LambdaArn' };
    }
  };

  const smoke = async (): Promise<CheckResult> => {
    if (facts.runtimeArn || !facts.lambdaArn) return checkSmoke(facts.runtimeArn, deps.smokeResults);
    if (deps.lambdaSmoke) return lambdaSmoke(facts.lambdaArn);
    return {
      check: 'smoke',
      level: 'warn',
      message: 'The agent Lambda was not smoke-called.',
      fix: 'Validate the job file in the editor, or run `mtrl launch FILE --lambda-smoke`: one call with the documented request.',
      key: 'LambdaArn',
    };
  };

  // The jobs using the runtime now, as the banner and cleanup find them; unreadable leaves the line without the note.
  const runningUsersOf = (arn: string, runtimeRegion: string) =>
    loadRunningJobs(deps.aws, [runtimeRegion], explain, signal).then(
      ({ jobs }) => runningUsers({ kind: 'runtime', id: arn }, jobs),
      () => undefined,
    );

  const runtime = async (): Promise<CheckResult> => {
    if (!facts.runtimeArn && facts.lambdaArn) return lambda(facts.lambdaArn);
    const arn = facts.runtimeArn;
    const id = arn ? runtimeIdFromArn(arn) : undefined;
    if (!arn || !id) return checkRuntime(arn ? { arn } : undefined, region);
    const runtimeRegion = /:bedrock-agentcore:([a-z0-9-]+):/.exec(arn)?.[1] ?? region;
    try {
      const [details, usedBy] = await Promise.all([
        getAgentRuntime(deps.aws.agentCoreControl(runtimeRegion), id, signal),
        runningUsersOf(arn, runtimeRegion),
      ]);
      return checkRuntime({ arn, status: details.status, usedBy }, region);
    } catch (error) {
      return checkRuntime({ arn, unreadable: say(error, `Reading runtime ${id}`) }, region);
    }
  };

  const model = async (): Promise<CheckResult> => checkModel(facts.baseModelArn, region, await deps.models(region, signal));

  const evaluations = async (): Promise<CheckResult | undefined> => {
    if (job.JobCategory !== 'AgentRFTEvaluation') return undefined;
    const running: string[] = [];
    for await (const j of listJobs(sagemaker, { JobCategory: 'AgentRFTEvaluation', StatusEquals: 'InProgress' }, signal))
      if (j.JobName) running.push(j.JobName);
    return checkEvaluations(job.JobCategory, running);
  };

  const guarded = (id: CheckResult['check'], action: string, run: () => Promise<CheckResult | undefined>) =>
    run().catch((error: unknown): CheckResult => {
      signal?.throwIfAborted();
      return { check: id, level: 'warn', message: `Could not check: ${say(error, action)}` };
    });

  const results = await Promise.all([
    guarded('jobName', 'Listing jobs', jobName),
    guarded('schema', 'Validating the document', schema),
    Promise.resolve(
      checkHyperparameters(job.JobCategory, facts.hyperparameters, job.JobConfigDocument.StoppingCondition?.MaxRuntimeInSeconds),
    ),
    Promise.resolve(checkModelPackageGroups(job.JobCategory, job.JobConfigDocument, facts.baseModelArn)),
    Promise.resolve(checkEvaluationEula(job.JobCategory, job.JobConfigDocument)),
    guarded('datasets', 'Reading the datasets', datasets),
    guarded('role', 'Reading the role', role),
    guarded('runtime', 'Reading the runtime', runtime),
    guarded('model', 'Listing models', model),
    guarded('evaluations', 'Listing running evaluations', evaluations),
    guarded('smoke', 'Smoke-calling the agent', smoke),
    guarded('quota', 'Reading the MTRL quota', () => quotaCheck(deps.aws, explain, job.JobCategory, region, signal)),
    guarded('mlflow', 'Listing MLflow apps', () => mlflowCheck(deps.aws, facts.mlflowArn, region, signal)),
    guarded('notifications', 'Checking notifications', async () =>
      job.Notifications ? notificationsCheck(deps.aws, explain, job.Notifications, region, signal) : undefined,
    ),
  ]);
  signal?.throwIfAborted();
  return { results: results.filter((r): r is CheckResult => r !== undefined), rows };
}
