import { MlflowError } from '../aws/mlflow/answers';
import { RewardRuleCheck } from '../core/numberRules';
import { describeMlflowError } from '../aws/mlflow/errors';
import { DEFAULT_SUCCESS_THRESHOLD, prepareTranscripts, skippedLineNotes, type JobContext } from '../core/rollouts';
import type { Transcript } from '../core/transcript/model';
import { unmatchedRowsNote } from '../core/transcript/tasks';
import {
  jobReader,
  localReader,
  localTasks,
  readRollouts,
  savedTranscripts,
  SavedTranscriptsProblem,
  streamReader,
  UnreadableFile,
  type RolloutReader,
} from '../services/rollouts';
import { AWS_OPTIONS, awsFromOptions } from './awsOptions';
import { UsageError, type CliIO } from './command';

/** The flags that name where rollouts come from; `mtrl rollouts`, `mtrl signal` and `mtrl reward --rescore` share them. */
export const SOURCE_OPTIONS = {
  data: { type: 'string' },
  'success-threshold': { type: 'string' },
  job: { type: 'string' },
  evaluation: { type: 'boolean' },
  from: { type: 'string' },
  ...AWS_OPTIONS,
} as const;

/** The flags of the commands that run the user's Python over those rollouts (`mtrl signal`, `mtrl reward --rescore`). */
export const PYTHON_OVER_ROLLOUTS_OPTIONS = {
  ...SOURCE_OPTIONS,
  python: { type: 'string', default: 'python3' },
  steps: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export const SOURCE_USAGE = `  --data         the training data (JSONL, JSON, CSV or Parquet with a prompt column) to match rollouts to tasks
  --job          a training job name (--evaluation: an evaluation job) read through the AWS endpoint
  --from         log: the runtime log only; traces: the MLflow run's traces only (default: the best there is)
  --success-threshold  reward at or above which a rollout is solved (default: the job's, else 1.0)
  --region, --endpoint, --profile   where the job is (the endpoint also from AWS_ENDPOINT_URL)`;

interface SourceValues {
  data?: string;
  'success-threshold'?: string;
  job?: string;
  evaluation?: boolean;
  from?: string;
  region?: string;
  endpoint?: string;
  profile?: string;
}

export interface ReadSource<T = Transcript> {
  /** What was kept of each rollout read (the rollout whole, unless the caller keeps less). */
  rollouts: T[];
  /** In words, for the report's first line: `run.log`, `job X (its MLflow traces)`. */
  source: string;
  /** Why a job's read stopped part-way; the rollouts are what was read before it. */
  partial?: string;
  /** The reward at or above which they were judged solved: --success-threshold, else the job's, else the default. */
  successThreshold: number;
}

/** The rows of a local dataset, as a task matcher. */
async function tasksFrom(file: string) {
  try {
    return await localTasks(file);
  } catch (error) {
    throw new UsageError(`--data: ${(error as Error).message}`);
  }
}

/** A file's, folder's or standard input's rollouts; lines over the cap go to stderr, so JSON output stays what scripts expect. */
async function fromLocal<T>(command: string, target: string, io: CliIO, job: JobContext, keep: Keep<T>): Promise<T[]> {
  const saved = await savedTranscripts(target, job).catch((error: unknown) => {
    throw error instanceof SavedTranscriptsProblem ? new UsageError(error.message) : error;
  });
  // Saved transcripts were readied when kept; a dataset given now still matches those without a row.
  if (saved) return (job.tasks ? prepareTranscripts(saved, job) : saved).map(keep);
  try {
    const reader: RolloutReader = target === '-' ? streamReader(async () => io.stdin()) : localReader(target);
    const rollouts = await readRollouts(reader, io.signal ?? new AbortController().signal, job, undefined, undefined, keep);
    for (const note of skippedLineNotes(reader.skipped ?? [])) io.err(`mtrl ${command}: ${note}.`);
    return rollouts;
  } catch (error) {
    if (error instanceof UnreadableFile) throw new UsageError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `cannot read ${target}: no such file` : `cannot read ${target}: ${(error as Error).message}`);
  }
}

/** With --data, how many rollouts found their row, when not all did: a dataset that matches nothing is said, not silent. */
function sayUnmatched(command: string, data: string | undefined, counted: { matched: number; read: number }, io: CliIO): void {
  const note = data && unmatchedRowsNote(counted.matched, counted.read, data);
  if (note) io.err(`mtrl ${command}: ${note}.`);
}

/** For commands that need rollouts to work on: none found is an error naming the source. */
export function requireRollouts<T>(read: ReadSource<T>): ReadSource<T> {
  if (!read.rollouts.length)
    throw new UsageError(
      `no rollouts in ${read.source}: give a log with rollout records or SDK lines, MLflow traces, the output of mtrl rollouts … --transcripts, or --job <name>`,
    );
  return read;
}

/** What is kept of each rollout read, saved transcripts included: summaryKeeper for a summary, a report's bound, a tally. */
type Keep<T> = (t: Transcript) => T;

/** Every rollout of a file, folder, standard input or job (`--job`), prepared with the dataset and threshold given; refused when a reward breaks the reward rule. */
export async function readSource(command: string, values: SourceValues, target: string | undefined, io: CliIO): Promise<ReadSource>;
export async function readSource<T>(
  command: string,
  values: SourceValues,
  target: string | undefined,
  io: CliIO,
  keep: Keep<T>,
): Promise<ReadSource<T>>;
export async function readSource(
  command: string,
  values: SourceValues,
  target: string | undefined,
  io: CliIO,
  keep: Keep<unknown> = (t) => t,
): Promise<ReadSource<unknown>> {
  // Each rollout is checked as it is read: a caller may keep nothing of it.
  const rule = new RewardRuleCheck();
  const counted = { matched: 0, read: 0 };
  const read = await readAnySource(command, values, target, io, (t) => {
    rule.add(t);
    counted.read++;
    if (t.task.rowIndex !== undefined) counted.matched++;
    return keep(t);
  });
  const problem = rule.problem();
  if (problem) throw new UsageError(`${read.source}: ${problem}`);
  sayUnmatched(command, values.data, counted, io);
  return read;
}

async function readAnySource<T>(
  command: string,
  values: SourceValues,
  target: string | undefined,
  io: CliIO,
  keep: Keep<T>,
): Promise<ReadSource<T>> {
  const threshold = values['success-threshold'] === undefined ? undefined : Number(values['success-threshold']);
  if (threshold !== undefined && !Number.isFinite(threshold))
    throw new UsageError(`--success-threshold takes a number, not "${values['success-threshold']}"`);
  const job: JobContext = { ...(threshold !== undefined ? { successThreshold: threshold } : {}) };
  if (values.data) job.tasks = await tasksFrom(values.data);
  if (values.from !== undefined && values.from !== 'log' && values.from !== 'traces')
    throw new UsageError(`--from takes log or traces, not "${values.from}"`);
  if (values.from !== undefined && !values.job) throw new UsageError('--from goes with --job');
  if (!values.job) {
    if (!target) throw new UsageError('give a log file, traces file or folder (or - for standard input), or --job <name>');
    const rollouts = await fromLocal(command, target, io, job, keep);
    return { rollouts, source: target === '-' ? 'standard input' : target, successThreshold: threshold ?? DEFAULT_SUCCESS_THRESHOLD };
  }
  const { aws, settings, explain } = awsFromOptions(values);
  // Our own sentences are plain Errors; the services' errors (SDK, MLflow, paging) become sentences naming service, endpoint and fix.
  const sentence = (error: unknown, action: string) =>
    error instanceof MlflowError
      ? describeMlflowError(error, { profile: settings.profile, endpoint: settings.endpoint, region: settings.region, action })
      : error instanceof Error && error.constructor === Error
        ? error.message
        : explain(error, action);
  const stopped: { error?: unknown } = {};
  const address = {
    jobName: values.job,
    category: values.evaluation ? ('AgentRFTEvaluation' as const) : ('AgentRFT' as const),
    region: settings.region,
  };
  let from: RolloutReader['from'];
  let rollouts: T[];
  const judged: { successThreshold?: number } = {};
  try {
    const signal = io.signal ?? new AbortController().signal;
    const reader = await jobReader(
      aws,
      address,
      signal,
      values.from === 'log' || values.from === 'traces' ? values.from : 'best',
      (limit) =>
        io.err(`mtrl ${command}: read the newest ${limit.toLocaleString('en')} traces of job ${values.job}; older ones were not read.`),
    );
    from = reader.from;
    rollouts = await readRollouts(reader, signal, job, stopped, judged, keep);
    for (const note of reader.notes ?? []) io.err(`mtrl ${command}: ${note}`);
  } catch (error) {
    throw new UsageError(sentence(error, `Read the rollouts of job ${values.job}`));
  } finally {
    aws.reset();
  }
  let source = from === 'traces' ? `job ${values.job} (its MLflow traces)` : `job ${values.job}`;
  const successThreshold = judged.successThreshold ?? DEFAULT_SUCCESS_THRESHOLD;
  if (stopped.error === undefined) return { rollouts, source, successThreshold };
  source += ' (partial)';
  return { rollouts, source, successThreshold, partial: sentence(stopped.error, `Reading the rollouts of job ${values.job} to the end`) };
}
