import { withoutServiceOutput, type JobConfigDocument } from './document';
import { budgetFromJobFile } from './budget';
import { isNotificationTag, notificationRouteOf, notificationsFromJobFile, notificationTags, type JobNotifications } from './notifications';
import type { JobCategory } from './status';

/** A `*.mtrl.json` job file: CreateJob's request with the document as JSON (not a string) and the region. */
export interface JobFile {
  JobName: string;
  JobCategory: JobCategory;
  Region: string;
  RoleArn: string;
  JobConfigSchemaVersion: string;
  JobConfigDocument: JobConfigDocument;
  Tags?: { Key: string; Value: string }[];
  /** Opt-in budget guard, kept by the extension (never sent to SageMaker). */
  Budget?: { Dollars: number; AutoStop?: boolean };
  /** The SDK's notifications: an EventBridge rule the launch makes before CreateJob (not a CreateJob member). */
  Notifications?: JobNotifications;
}

/** The document schema version of the jobs we create. */
export const JOB_CONFIG_SCHEMA_VERSION = '1.0.0';

/** A new job's file: its name, category, region and role around a built document. */
export function newJobFile(
  job: { name: string; category: JobCategory; region: string; roleArn: string },
  document: JobConfigDocument,
): JobFile {
  return {
    JobName: job.name,
    JobCategory: job.category,
    Region: job.region,
    RoleArn: job.roleArn,
    JobConfigSchemaVersion: JOB_CONFIG_SCHEMA_VERSION,
    JobConfigDocument: document,
  };
}

/** The order keys are written in, so an exported file reads the same every time. */
const KEYS = [
  'JobName',
  'JobCategory',
  'Region',
  'RoleArn',
  'JobConfigSchemaVersion',
  'JobConfigDocument',
  'Tags',
  'Budget',
  'Notifications',
] as const;

/** A problem that makes the text unusable as a job file, with where it is. */
interface JobFileProblem {
  message: string;
  /** Character offset in the text, when known. */
  offset?: number;
  /** The key the problem is about, when there is one. */
  key?: string;
}

type ParsedJobFile = { jobFile: JobFile; problems: [] } | { jobFile?: undefined; problems: JobFileProblem[] };

// SageMaker's CreateJob limits: a file past them passed the pre-flight and failed at CreateJob.
const MAX_TAGS = 50;
const MAX_TAG_KEY = 128;
const MAX_TAG_VALUE = 256;

function tagProblems(tags: { Key: string; Value: string }[]): JobFileProblem[] {
  const problems: JobFileProblem[] = [];
  if (tags.length > MAX_TAGS)
    problems.push({ message: `Tags holds ${tags.length.toLocaleString('en-US')} tags; SageMaker takes at most ${MAX_TAGS}.`, key: 'Tags' });
  const badKey = tags.find((t) => t.Key.length < 1 || t.Key.length > MAX_TAG_KEY);
  if (badKey)
    problems.push({
      message: `A tag's Key is 1 to ${MAX_TAG_KEY} characters; one is ${badKey.Key.length.toLocaleString('en-US')}.`,
      key: 'Tags',
    });
  const badValue = tags.find((t) => t.Value.length > MAX_TAG_VALUE);
  if (badValue)
    problems.push({
      message: `A tag's Value is at most ${MAX_TAG_VALUE} characters; the one of ${JSON.stringify(badValue.Key.slice(0, 40))} is ${badValue.Value.length.toLocaleString('en-US')}.`,
      key: 'Tags',
    });
  return problems;
}

export function parseJobFile(text: string): ParsedJobFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    return { problems: [{ message: `Not valid JSON: ${message}`, offset: position ? Number(position[1]) : 0 }] };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return {
      problems: [
        {
          message: 'A job file is a JSON object with JobName, JobCategory, Region, RoleArn, JobConfigSchemaVersion and JobConfigDocument.',
          offset: 0,
        },
      ],
    };
  const v = value as Record<string, unknown>;
  const problems: JobFileProblem[] = [];
  for (const key of ['JobName', 'Region', 'RoleArn', 'JobConfigSchemaVersion'] as const) {
    if (typeof v[key] !== 'string' || v[key] === '') problems.push({ message: `${key} must be a non-empty string.`, key });
  }
  if (v.JobCategory !== 'AgentRFT' && v.JobCategory !== 'AgentRFTEvaluation')
    problems.push({ message: 'JobCategory must be "AgentRFT" (training) or "AgentRFTEvaluation".', key: 'JobCategory' });
  if (!v.JobConfigDocument || typeof v.JobConfigDocument !== 'object' || Array.isArray(v.JobConfigDocument))
    problems.push({ message: 'JobConfigDocument must be a JSON object (not a string).', key: 'JobConfigDocument' });
  if (
    v.Tags !== undefined &&
    !(Array.isArray(v.Tags) && v.Tags.every((t) => t && typeof t.Key === 'string' && typeof t.Value === 'string'))
  ) {
    problems.push({ message: 'Tags must be a list of { "Key": "…", "Value": "…" }.', key: 'Tags' });
  } else if (v.Tags !== undefined) problems.push(...tagProblems(v.Tags as { Key: string; Value: string }[]));
  const budget = budgetFromJobFile(v.Budget);
  if (budget && 'problem' in budget) problems.push({ message: budget.problem, key: 'Budget' });
  const notifications = notificationsFromJobFile(v.Notifications);
  if (notifications && 'problem' in notifications) problems.push({ message: notifications.problem, key: 'Notifications' });
  for (const key of Object.keys(v)) {
    if (!(KEYS as readonly string[]).includes(key) && key !== '$schema')
      problems.push({ message: `Unknown key ${key}; a job file holds ${KEYS.join(', ')}.`, key });
  }
  if (problems.length) return { problems };
  return { jobFile: v as unknown as JobFile, problems: [] };
}

/** The canonical text: fixed key order, two-space indent, final newline. */
export function serializeJobFile(jobFile: JobFile): string {
  const ordered: Record<string, unknown> = {};
  for (const key of KEYS) if (jobFile[key] !== undefined) ordered[key] = jobFile[key];
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** The CreateJob request the file stands for; the region picks the client. With the notification rule made, the job's tags name it. */
export function createJobRequest(jobFile: JobFile, notificationRuleArn?: string) {
  const tags = [
    ...(jobFile.Tags ?? []),
    ...(jobFile.Notifications && notificationRuleArn ? notificationTags(jobFile.Notifications, notificationRuleArn) : []),
  ];
  return {
    JobName: jobFile.JobName,
    RoleArn: jobFile.RoleArn,
    JobCategory: jobFile.JobCategory,
    JobConfigSchemaVersion: jobFile.JobConfigSchemaVersion,
    JobConfigDocument: JSON.stringify(jobFile.JobConfigDocument),
    ...(tags.length && { Tags: tags }),
  };
}

/** What DescribeJob returns, in the shape of its fields that a job file keeps. */
interface DescribedJob {
  JobName?: string;
  JobCategory?: string;
  RoleArn?: string;
  JobConfigSchemaVersion?: string;
  JobConfigDocument?: string;
  Tags?: { Key?: string; Value?: string }[];
}

/** A job file that launches the same job again: ServiceOutput dropped, the rest exactly as the service holds it. */
export function jobFileFromDescription(job: DescribedJob, region: string): JobFile {
  // The service model makes JobConfigDocument optional: without it there is nothing to launch again.
  if (!job.JobConfigDocument)
    throw new Error(
      `DescribeJob returned no JobConfigDocument for ${job.JobName ?? 'the job'} (the service model makes it optional): its configuration is unknown, so it cannot be saved as a job file or launched again.`,
    );
  const document = JSON.parse(job.JobConfigDocument) as JobConfigDocument;
  const tags = (job.Tags ?? []).filter(
    (t): t is { Key: string; Value: string } => typeof t.Key === 'string' && typeof t.Value === 'string' && !isNotificationTag(t.Key),
  );
  const route = notificationRouteOf(job.Tags);
  return {
    JobName: job.JobName ?? '',
    JobCategory: job.JobCategory === 'AgentRFTEvaluation' ? 'AgentRFTEvaluation' : 'AgentRFT',
    Region: region,
    RoleArn: job.RoleArn ?? '',
    JobConfigSchemaVersion: job.JobConfigSchemaVersion ?? JOB_CONFIG_SCHEMA_VERSION,
    JobConfigDocument: withoutServiceOutput(document),
    ...(tags.length > 0 && { Tags: tags }),
    ...(route && { Notifications: { SnsTopicArn: route.topicArn, Events: route.events } }),
  };
}

/** "wordle-grpo-2" after "wordle-grpo-1", "x-2" after "x": a fresh name for a similar job. */
export function nextJobName(name: string, taken: ReadonlySet<string>): string {
  const m = /^(.*?)-(\d+)$/.exec(name);
  const stem = m ? m[1] : name;
  for (let n = m ? Number(m[2]) + 1 : 2; ; n++) {
    const candidate = `${stem.slice(0, 62 - String(n).length)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Where a key is first written as a property (`"key":`), so a diagnostic can point at it. */
export function keyOffset(text: string, key: string): { offset: number; length: number } | undefined {
  const m = new RegExp(`"${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*:`).exec(text);
  return m ? { offset: m.index, length: key.length + 2 } : undefined;
}
