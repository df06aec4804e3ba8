import { AWS_OPTIONS, awsFromOptions } from './awsOptions';
import { skippedLineNotes, type JobContext } from '../core/rollouts';
import type { TaskMatcher } from '../core/transcript/tasks';
import type { Transcript } from '../core/transcript/model';
import { jobReader, localReader, localTasks, readRollouts, streamReader, type RolloutReader } from '../services/rollouts';
import { EXIT_CLEAN, EXIT_FINDINGS, parseOptions, UsageError, type CliCommand, type CliIO } from './command';
import { reportJson, reportText, rolloutReport } from './rolloutsReport';

const usage = [
  'Usage: mtrl rollouts <file|dir|-> [--data DATASET] [--step N] [--json|--transcripts]',
  '       mtrl rollouts --job <name> [--evaluation] [--step N] [--from log|traces] [--region R] [--endpoint URL] [--profile P] [--json|--transcripts]',
  '',
  "Reads rollouts from a log (rollout records, else the SDK's UpdateReward/CompleteRollout lines and tool output),",
  'MLflow traces (a traces.json artifact, a folder of them, a traces/search or batchGet response, JSON Lines of traces),',
  'or a job (its runtime log, else its MLflow traces, spans from S3 when REST has none), and prints solve rate, rewards,',
  'tool calls, per training step the solve rate and mean reward, and which actions above-average rollouts took.',
  "GRPO groups are one task in one step: a rollout's task is the dataset row whose prompt its first message contains",
  "(the job's training data, or --data), else its exact first message; its step comes from its record or trace, else",
  "its time against the job's step ends.",
  '',
  '  --data         the training data (JSONL, JSON, CSV or Parquet with a prompt column) to match rollouts to tasks',
  '  --job          a training job name (--evaluation: an evaluation job) read through the AWS endpoint',
  '  --step         only the rollouts of this training step',
  "  --from         log: the runtime log only; traces: the MLflow run's traces only (default: the best there is)",
  "  --success-threshold  reward at or above which a rollout is solved (default: the job's, else 1.0)",
  '  --transcripts  one normalized transcript per line (JSON Lines) instead of the summary',
  '  --region, --endpoint, --profile   where the job is (the endpoint also from AWS_ENDPOINT_URL)',
  '',
  'Exit code 1 when the input holds no rollout at all.',
].join('\n');

/** The rows of a local dataset, as a task matcher. */
async function tasksFrom(file: string): Promise<TaskMatcher> {
  try {
    return await localTasks(file);
  } catch (error) {
    throw new UsageError(`--data: ${(error as Error).message}`);
  }
}

/** A file's, folder's or standard input's rollouts; lines over the cap go to stderr, so the --json shape stays what scripts expect. */
async function fromLocal(target: string, io: CliIO, job: JobContext): Promise<Transcript[]> {
  try {
    const reader: RolloutReader = target === '-' ? streamReader(async () => io.stdin()) : localReader(target);
    const rollouts = await readRollouts(reader, io.signal ?? new AbortController().signal, job);
    for (const note of skippedLineNotes(reader.skipped ?? [])) io.err(`mtrl rollouts: ${note}.`);
    return rollouts;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `cannot read ${target}: no such file` : `cannot read ${target}: ${(error as Error).message}`);
  }
}

export const rolloutsCommand: CliCommand = {
  name: 'rollouts',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: {
        json: { type: 'boolean' },
        transcripts: { type: 'boolean' },
        data: { type: 'string' },
        'success-threshold': { type: 'string' },
        job: { type: 'string' },
        evaluation: { type: 'boolean' },
        step: { type: 'string' },
        from: { type: 'string' },
        ...AWS_OPTIONS,
      },
      allowPositionals: true,
    });
    const [file, ...extra] = positionals;
    if (values.job ? file !== undefined : !file || extra.length)
      throw new UsageError('give one log file, traces file or folder (or - for standard input), or --job <name>');
    if (values.json && values.transcripts) throw new UsageError('--json and --transcripts each print the whole output: pick one');
    const threshold = values['success-threshold'] === undefined ? undefined : Number(values['success-threshold']);
    if (threshold !== undefined && !Number.isFinite(threshold))
      throw new UsageError(`--success-threshold takes a number, not "${values['success-threshold']}"`);
    const job: JobContext = { ...(threshold !== undefined ? { successThreshold: threshold } : {}) };
    if (values.data) job.tasks = await tasksFrom(values.data);
    const step = values.step === undefined ? undefined : Number(values.step);
    if (step !== undefined && !(Number.isInteger(step) && step >= 0))
      throw new UsageError(`--step takes a step number, not "${values.step}"`);
    if (values.from !== undefined && values.from !== 'log' && values.from !== 'traces')
      throw new UsageError(`--from takes log or traces, not "${values.from}"`);
    if (values.from !== undefined && !values.job) throw new UsageError('--from goes with --job');
    let rollouts: Transcript[];
    let source: string;
    if (values.job) {
      const { aws, settings, explain } = awsFromOptions(values);
      const address = {
        jobName: values.job,
        category: values.evaluation ? ('AgentRFTEvaluation' as const) : ('AgentRFT' as const),
        region: settings.region,
      };
      let from: RolloutReader['from'];
      try {
        const signal = io.signal ?? new AbortController().signal;
        const reader = await jobReader(aws, address, signal, values.from ?? 'best', (limit) =>
          io.err(`mtrl rollouts: read the newest ${limit.toLocaleString('en')} traces of job ${values.job}; older ones were not read.`),
        );
        from = reader.from;
        rollouts = await readRollouts(reader, signal, job);
        for (const note of reader.notes ?? []) io.err(`mtrl rollouts: ${note}`);
      } catch (error) {
        throw new UsageError(
          error instanceof Error && !('$metadata' in error) ? error.message : explain(error, `Read the rollouts of job ${values.job}`),
        );
      } finally {
        aws.reset();
      }
      source = from === 'traces' ? `job ${values.job} (its MLflow traces)` : `job ${values.job}`;
    } else {
      rollouts = await fromLocal(file, io, job);
      source = file === '-' ? 'standard input' : file;
    }
    if (step !== undefined) {
      rollouts = rollouts.filter((r) => r.step === step);
      source += `, step ${step}`;
    }
    if (values.transcripts) {
      for (const t of rollouts) io.out(JSON.stringify(t));
      return rollouts.length ? EXIT_CLEAN : EXIT_FINDINGS;
    }
    const report = rolloutReport(rollouts);
    if (values.json) io.out(JSON.stringify(reportJson(report)));
    else
      io.out(
        rollouts.length
          ? reportText(report, source)
          : `no rollouts in ${source}: the agent logs no rollout record (see "MTRL: Insert Rollout Logging"), and no trace, UpdateReward or tool output line was found`,
      );
    return rollouts.length ? EXIT_CLEAN : EXIT_FINDINGS;
  },
};
