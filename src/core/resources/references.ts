import { isInProgress } from '../jobs/status';
import type { JobDetails } from '../jobs/job';

/** What a cleanup can delete: an AgentCore runtime, an IAM role, an MLflow app, or every object under an S3 prefix. */
export type ResourceKind = 'runtime' | 'role' | 'mlflowApp' | 's3Prefix';

/** A resource by kind and id: an ARN, or `s3://bucket/prefix/` for objects. */
export interface ResourceRef {
  kind: ResourceKind;
  id: string;
}

const KIND_WORDS: Record<ResourceKind, string> = { runtime: 'agent runtime', role: 'role', mlflowApp: 'MLflow app', s3Prefix: 'S3 prefix' };

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
  return undefined;
}

/** `s3://b/a/b` → `s3://b/a/b/`: a prefix always ends at a folder boundary, so `output` never takes `output-old` with it. */
function asPrefixUri(uri: string): string {
  return uri.endsWith('/') ? uri : `${uri}/`;
}

/** The folder an S3 URI lives in: a dataset file's folder, or an output path itself. */
export function folderOf(uri: string, isFile: boolean): string {
  if (!isFile) return asPrefixUri(uri);
  const cut = uri.lastIndexOf('/');
  return cut > 's3://'.length ? uri.slice(0, cut + 1) : asPrefixUri(uri);
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
  };
}

/** Whether the job names the resource; an S3 prefix counts when the job reads or writes anything under it or above it. */
export function jobUses(job: JobDetails, ref: ResourceRef): boolean {
  const r = referencesOf(job);
  switch (ref.kind) {
    case 'runtime':
      return r.runtime === ref.id;
    case 'role':
      return r.role === ref.id;
    case 'mlflowApp':
      return r.mlflowApp === ref.id;
    case 's3Prefix':
      return [...r.inputs, ...(r.output ? [r.output] : [])].some((uri) => overlaps(ref.id, uri, job.name));
  }
}

/** A job's output lands under `<S3OutputPath>/<job name>/`: another job's folder there is not this job's. */
function overlaps(prefix: string, uri: string, jobName: string): boolean {
  if (uri.startsWith(prefix)) return true;
  if (!prefix.startsWith(asPrefixUri(uri))) return false;
  const below = prefix.slice(asPrefixUri(uri).length).split('/')[0];
  return below === '' || below === jobName;
}

/** The running jobs (in progress or stopping) that use the resource: a cleanup must leave it alone. */
export function runningUsers(ref: ResourceRef, jobs: readonly JobDetails[]): JobDetails[] {
  return jobs.filter((j) => isInProgress(j.status) && jobUses(j, ref));
}

/** "used by running job wordle-lr-sweep": why a resource may not be deleted. */
export function inUseReason(users: readonly JobDetails[]): string {
  const names = users.map((j) => j.name).join(', ');
  return `used by running job${users.length > 1 ? 's' : ''} ${names}; stop ${users.length > 1 ? 'them' : 'it'} or wait until ${users.length > 1 ? 'they finish' : 'it finishes'}`;
}
