import { isJobCategory, type JobCategory } from './status';

/** A job as the service addresses it: name and category; the region picks the endpoint (the current one when absent). */
export interface JobRef {
  jobName: string;
  category: JobCategory;
  region?: string;
}

/** What a command argument names: always the job's name, its category and region when the argument carries them. */
interface JobArgument {
  jobName: string;
  category?: JobCategory;
  region?: string;
}

interface JobArn {
  partition: string;
  region: string;
  account: string;
  category: JobCategory;
  jobName: string;
}

const JOB_ARN = /^arn:(aws[a-z-]*):sagemaker:([a-z0-9-]+):(\d{12}):job\/(AgentRFT|AgentRFTEvaluation)\/([a-zA-Z0-9-]{1,63})$/;
/** `mtrl-job:/us-east-1/AgentRFT/wordle-grpo.json` and `mtrl-job-logs:/….log`: the address of a job's read-only documents. */
const JOB_URI_PATH = /^\/([^/]+)\/(AgentRFT|AgentRFTEvaluation)\/([^/]+)\.[a-z]+$/;
/** CreateJob's JobName: 1–63 letters, digits and hyphens, starting and ending with a letter or digit. */
export const JOB_NAME_PATTERN = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/;

/** `arn:aws:sagemaker:{region}:{account}:job/{Category}/{name}`. */
export function jobArnOf(arn: Omit<JobArn, 'partition'> & { partition?: string }): string {
  return `arn:${arn.partition ?? 'aws'}:sagemaker:${arn.region}:${arn.account}:job/${arn.category}/${arn.jobName}`;
}

export function parseJobArn(text: string): JobArn | undefined {
  const m = JOB_ARN.exec(text.trim());
  return m && isJobCategory(m[4]) ? { partition: m[1], region: m[2], account: m[3], category: m[4], jobName: m[5] } : undefined;
}

/** The path of a job document's URI (`/{region}/{Category}/{name}.{ext}`). */
export function jobUriPath(job: Required<JobRef>, extension: string): string {
  return `/${job.region}/${job.category}/${job.jobName}.${extension}`;
}

export function parseJobUriPath(path: string): Required<JobRef> | undefined {
  const m = JOB_URI_PATH.exec(path);
  return m && isJobCategory(m[2]) && JOB_NAME_PATTERN.test(m[3]) ? { region: m[1], category: m[2], jobName: m[3] } : undefined;
}

export function isJobRef(value: JobArgument | undefined): value is JobRef {
  return !!value && isJobCategory(value.category);
}

/**
 * The one parser of a command's job argument: a tree node (or a node under one, via `parent`), `{ jobName, category, region? }`,
 * a job ARN, a job document URI (`{ scheme, path }` or its string), or a bare job name.
 */
export function parseJobArgument(arg: unknown): JobArgument | undefined {
  if (typeof arg === 'string') return fromText(arg);
  if (!arg || typeof arg !== 'object') return undefined;
  const v = arg as {
    jobName?: unknown;
    category?: unknown;
    region?: unknown;
    parent?: unknown;
    scheme?: unknown;
    path?: unknown;
    arn?: unknown;
  };
  if (typeof v.jobName === 'string' && JOB_NAME_PATTERN.test(v.jobName)) {
    const region = typeof v.region === 'string' && v.region ? v.region : undefined;
    return { jobName: v.jobName, ...(isJobCategory(v.category) && { category: v.category }), ...(region && { region }) };
  }
  if (typeof v.scheme === 'string' && typeof v.path === 'string') return parseJobUriPath(v.path);
  if (typeof v.arn === 'string') return parseJobArgument(v.arn);
  // A section or history entry of a job node: its job is up the parent chain (bounded: the jobs tree is 4 deep).
  for (let node = v.parent, depth = 0; node && typeof node === 'object' && depth < 4; depth++) {
    const { jobName, category, region, parent } = node as { jobName?: unknown; category?: unknown; region?: unknown; parent?: unknown };
    if (typeof jobName === 'string') return parseJobArgument({ jobName, category, region });
    node = parent;
  }
  return undefined;
}

function fromText(text: string): JobArgument | undefined {
  const arn = parseJobArn(text);
  if (arn) return { jobName: arn.jobName, category: arn.category, region: arn.region };
  const uri = /^[a-z][a-z0-9+.-]*:(\/\/[^/]*)?(\/.*)$/i.exec(text.trim());
  if (uri && !text.startsWith('arn:')) return parseJobUriPath(safeDecode(uri[2]));
  return JOB_NAME_PATTERN.test(text.trim()) ? { jobName: text.trim() } : undefined;
}

/** A URI path with its escapes undone; a malformed escape leaves the path as typed (it then matches no job). */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
