import { holdsResources } from '../jobs/status';
import type { JobDetails } from '../jobs/job';

/** What a cleanup can delete: an AgentCore runtime, an IAM role, an MLflow app, every object under an S3 prefix, or the
 * EventBridge rule a launch made for notifications. */
export type ResourceKind = 'runtime' | 'role' | 'mlflowApp' | 's3Prefix' | 'notificationRule';

/** A resource by kind and id: an ARN, or `s3://bucket/prefix/` for objects. */
export interface ResourceRef {
  kind: ResourceKind;
  id: string;
}

const KIND_WORDS: Record<ResourceKind, string> = {
  runtime: 'agent runtime',
  role: 'role',
  mlflowApp: 'MLflow app',
  s3Prefix: 'S3 prefix',
  notificationRule: 'notification rule',
};

export function kindWord(kind: ResourceKind): string {
  return KIND_WORDS[kind];
}

/** The kind of resource an ARN or S3 URI names, or undefined when it is neither a runtime, role, MLflow app nor S3 URI. */
export function resourceRef(text: string): ResourceRef | undefined {
  const id = text.trim();
  if (/^s3:\/\/[^/]+(\/.*)?$/.test(id)) return { kind: 's3Prefix', id: asPrefixUri(id) };
  if (/^arn:aws[a-z-]*:bedrock-agentcore:[a-z0-9-]+:\d{12}:runtime\/[a-zA-Z0-9_-]+$/.test(id)) return { kind: 'runtime', id };
  if (/^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/.test(id)) return { kind: 'role', id };
  if (/^arn:[a-z0-9-.]+:sagemaker:[^:]+:[^:]+:mlflow-app\/.+$/.test(id)) return { kind: 'mlflowApp', id };
  if (/^arn:aws[a-z-]*:events:[a-z0-9-]+:\d{12}:rule\/.+$/.test(id)) return { kind: 'notificationRule', id };
  return undefined;
}

/** `s3://b/a/b` → `s3://b/a/b/`: a prefix always ends at a folder boundary, so `output` never takes `output-old` with it. */
function asPrefixUri(uri: string): string {
  return uri.endsWith('/') ? uri : `${uri}/`;
}

/** `s3://bucket/` (or `s3://bucket`): the whole bucket, never offered for cleanup. */
export function isBucketRoot(uri: string): boolean {
  return /^s3:\/\/[^/]+\/?$/.test(uri);
}

/** The folder an S3 URI names: a dataset file's folder, or an output path itself; undefined for a bucket root (no job owns a bucket). */
export function folderOf(uri: string, isFile: boolean): string | undefined {
  const folder = isFile ? uri.slice(0, uri.lastIndexOf('/') + 1) : asPrefixUri(uri);
  return folder.length <= 's3://'.length || isBucketRoot(folder) ? undefined : folder;
}

/** `s3://b/data/train.jsonl` names a file, `s3://b/data` a prefix: a dataset URI with an extension is a file. */
function isFileUri(uri: string): boolean {
  return /\.[a-z0-9]+$/i.test(uri);
}

/** Where a job's output lands: `<S3OutputPath>/<job name>/`. */
function outputFolderOf(output: string, jobName: string): string {
  return `${asPrefixUri(output)}${jobName}/`;
}

/** The prefixes the jobs read or wrote that a cleanup may offer (nested ones folded into the outer one): dataset folders and output paths, never a bucket root; an output path at a bucket root offers each job's own folder. */
export function jobPrefixes(jobs: readonly JobDetails[]): string[] {
  const folders = new Set<string>();
  for (const job of jobs) {
    const r = referencesOf(job);
    for (const uri of r.inputs) {
      const folder = folderOf(uri, isFileUri(uri));
      if (folder) folders.add(folder);
    }
    if (r.output) folders.add(folderOf(r.output, false) ?? outputFolderOf(r.output, job.name));
  }
  return [...folders].filter((f) => ![...folders].some((o) => o !== f && f.startsWith(o))).sort();
}

/** Every resource a job names in its request: runtime, role, MLflow app, the S3 URIs it reads and the path it writes. */
interface JobReferences {
  runtime?: string;
  role?: string;
  mlflowApp?: string;
  /** Dataset URIs (files or prefixes) the job reads. */
  inputs: string[];
  /** Where the job writes. */
  output?: string;
  /** The EventBridge rule its notifications go through, as its tags say. */
  notificationRule?: string;
}

export function referencesOf(job: JobDetails): JobReferences {
  const d = job.document;
  const inputs = (d?.InputDataConfig ?? []).map((c) => c.DataSource?.S3DataSource?.S3Uri).filter((u): u is string => Boolean(u));
  return {
    runtime: d?.AgentConfig?.BedrockAgentCoreConfig?.AgentRuntimeArn,
    role: job.roleArn,
    mlflowApp: d?.TrainingConfig?.MlflowConfig?.MlflowResourceArn ?? d?.OutputDataConfig?.MlflowConfig?.MlflowResourceArn,
    inputs,
    output: d?.OutputDataConfig?.S3OutputPath,
    notificationRule: job.notifications?.ruleArn,
  };
}

/** Whether the job names the resource; an S3 prefix counts when it holds, or lies within, what the job reads or its own output folder. */
export function jobUses(job: JobDetails, ref: ResourceRef): boolean {
  const r = referencesOf(job);
  switch (ref.kind) {
    case 'runtime':
      return r.runtime === ref.id;
    case 'role':
      return r.role === ref.id;
    case 'mlflowApp':
      return r.mlflowApp === ref.id;
    case 'notificationRule':
      return r.notificationRule === ref.id;
    case 's3Prefix':
      // An S3Prefix input reads every key that starts with it, so `s3://b/data` reads `s3://b/data-old/` too.
      return [...r.inputs, ...(r.output ? [outputFolderOf(r.output, job.name)] : [])].some(
        (uri) => uri.startsWith(ref.id) || ref.id.startsWith(uri),
      );
  }
}

/** The running jobs (in progress or stopping) that use the resource: a cleanup must leave it alone. */
export function runningUsers(ref: ResourceRef, jobs: readonly JobDetails[]): JobDetails[] {
  return jobs.filter((j) => holdsResources(j.status) && jobUses(j, ref));
}

/** Runtime ARN → the running jobs that invoke it: the one answer to "is this runtime in use?". */
export function runtimesInUse(jobs: readonly JobDetails[]): Map<string, JobDetails[]> {
  const inUse = new Map<string, JobDetails[]>();
  for (const job of jobs) {
    const runtime = referencesOf(job).runtime;
    if (runtime && runningUsers({ kind: 'runtime', id: runtime }, [job]).length) inUse.set(runtime, [...(inUse.get(runtime) ?? []), job]);
  }
  return inUse;
}

/** "used by running job wordle-lr-sweep in us-west-2": why a resource may not be deleted. */
export function inUseReason(users: readonly JobDetails[]): string {
  const regions = new Set(users.map((j) => j.region));
  const names =
    regions.size === 1
      ? `${users.map((j) => j.name).join(', ')} in ${users[0].region}`
      : users.map((j) => `${j.name} (${j.region})`).join(', ');
  return `used by running job${users.length > 1 ? 's' : ''} ${names}; stop ${users.length > 1 ? 'them' : 'it'} or wait until ${users.length > 1 ? 'they finish' : 'it finishes'}`;
}

/** Each target once, in the order named: a resource named twice is deleted and reported once. */
export function distinctTargets(refs: readonly ResourceRef[]): ResourceRef[] {
  return refs.filter((r, i) => refs.findIndex((o) => o.kind === r.kind && o.id === r.id) === i);
}

/** Roles and S3 are account-wide: any region's running job may use them. Runtimes, MLflow apps and rules live in the region of their ARN. */
export function regionOfResource(ref: ResourceRef): string | undefined {
  return ref.kind === 'role' || ref.kind === 's3Prefix' ? undefined : ref.id.split(':')[3];
}
