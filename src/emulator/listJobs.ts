import type { JobCategory } from '../core/jobs/status';
import { seconds } from './describeJob';
import { jobState } from './jobs';
import type { Job, JobState } from './jobModel';
import { ServiceError } from './protocol';
import type { World } from './world';

type Input = Record<string, unknown>;

interface Summary {
  job: Job;
  state: JobState;
}

const STATUS = ['InProgress', 'Completed', 'Failed', 'Stopping', 'Stopped', 'Deleting', 'DeleteFailed'];
const SORT_BY = ['Name', 'CreationTime', 'Status'];

/** ListJobs of a category already validated: filters, sort and pages as the service answers. */
export function listJobs(world: World, c: JobCategory, input: Input, now: number, region: string): unknown {
  const max = input.MaxResults === undefined ? 50 : Number(input.MaxResults);
  if (!Number.isInteger(max) || max < 1 || max > 100)
    throw new ServiceError(
      'ValidationException',
      `Value '${String(input.MaxResults)}' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and 100`,
    );
  if (input.StatusEquals !== undefined && !STATUS.includes(String(input.StatusEquals)))
    throw new ServiceError(
      'ValidationException',
      `Value '${String(input.StatusEquals)}' at 'statusEquals' failed to satisfy constraint: Member must satisfy enum value set: [${STATUS.join(', ')}]`,
    );
  const sortBy = String(input.SortBy ?? 'CreationTime');
  if (!SORT_BY.includes(sortBy))
    throw new ServiceError(
      'ValidationException',
      `Value '${sortBy}' at 'sortBy' failed to satisfy constraint: Member must satisfy enum value set: [${SORT_BY.join(', ')}]`,
    );
  const ms = (v: unknown) => (typeof v === 'number' ? v * 1000 : undefined);
  const [createdAfter, createdBefore, modifiedAfter, modifiedBefore] = [
    'CreationTimeAfter',
    'CreationTimeBefore',
    'LastModifiedTimeAfter',
    'LastModifiedTimeBefore',
  ].map((k) => ms(input[k]));
  const contains = typeof input.NameContains === 'string' ? input.NameContains.toLowerCase() : undefined;
  let rows: Summary[] = [...world.jobs.values()]
    .filter((j) => j.category === c && j.region === region && j.created <= now)
    .map((job) => ({ job, state: jobState(job, now) }));
  rows = rows.filter(
    ({ job, state }) =>
      (!contains || job.name.toLowerCase().includes(contains)) &&
      (input.StatusEquals === undefined || state.status === input.StatusEquals) &&
      (createdAfter === undefined || job.created > createdAfter) &&
      (createdBefore === undefined || job.created < createdBefore) &&
      (modifiedAfter === undefined || state.lastModified > modifiedAfter) &&
      (modifiedBefore === undefined || state.lastModified < modifiedBefore),
  );
  const key = (s: Summary): string | number => (sortBy === 'Name' ? s.job.name : sortBy === 'Status' ? s.state.status : s.job.created);
  const direction = input.SortOrder === 'Ascending' ? 1 : -1;
  rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return (x < y ? -1 : x > y ? 1 : a.job.name < b.job.name ? -1 : 1) * direction;
  });
  const start = decodeToken(input.NextToken);
  const page = rows.slice(start, start + max);
  const next = start + max < rows.length ? Buffer.from(JSON.stringify({ offset: start + max })).toString('base64') : undefined;
  return {
    JobSummaries: page.map(({ job, state }) => ({
      JobArn: job.arn,
      JobName: job.name,
      JobCategory: job.category,
      JobStatus: state.status,
      JobSecondaryStatus: state.secondary,
      CreationTime: seconds(job.created),
      LastModifiedTime: seconds(state.lastModified),
      EndTime: seconds(state.endTime),
    })),
    NextToken: next,
  };
}

function decodeToken(token: unknown): number {
  if (token === undefined) return 0;
  try {
    const offset = (JSON.parse(Buffer.from(String(token), 'base64').toString('utf8')) as { offset?: unknown }).offset;
    if (typeof offset === 'number' && offset >= 0) return offset;
  } catch {
    // Fall through to the error below.
  }
  throw new ServiceError('ValidationException', 'The NextToken is not valid. Start again without it.');
}
