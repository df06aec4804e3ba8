import { RolloutTally } from '../core/rollouts';
import type { Transcript } from '../core/transcript/model';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, parseOptions, UsageError, type CliCommand } from './command';
import { readSource, SOURCE_OPTIONS, SOURCE_USAGE } from './rolloutSource';
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
  SOURCE_USAGE,
  '  --step         only the rollouts of this training step',
  '  --transcripts  one normalized transcript per line (JSON Lines) instead of the summary',
  '',
  "Exit code 1 when the input holds no rollout at all; 2 when a job's read stopped part-way (the summary is of what was",
  'read, marked partial, and the error says why).',
].join('\n');

export const rolloutsCommand: CliCommand = {
  name: 'rollouts',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: {
        json: { type: 'boolean' },
        transcripts: { type: 'boolean' },
        step: { type: 'string' },
        ...SOURCE_OPTIONS,
      },
      allowPositionals: true,
    });
    const [file, ...extra] = positionals;
    if (values.job ? file !== undefined : !file || extra.length)
      throw new UsageError('give one log file, traces file or folder (or - for standard input), or --job <name>');
    if (values.json && values.transcripts) throw new UsageError('--json and --transcripts each print the whole output: pick one');
    const step = values.step === undefined ? undefined : Number(values.step);
    if (step !== undefined && !(Number.isInteger(step) && step >= 0))
      throw new UsageError(`--step takes a step number, not "${values.step}"`);
    const inStep = (t: Transcript) => step === undefined || t.step === step;
    const where = (source: string) => (step === undefined ? source : `${source}, step ${step}`);
    if (values.transcripts) {
      const read = await readSource('rollouts', values, file, io);
      const rollouts = read.rollouts.filter(inStep);
      if (read.partial) io.err(`mtrl rollouts: partial: ${rollouts.length} rollouts read, then ${read.partial}`);
      for (const t of rollouts) io.out(JSON.stringify(t));
      if (read.partial) return EXIT_USAGE;
      return rollouts.length ? EXIT_CLEAN : EXIT_FINDINGS;
    }
    // A summary reads each rollout's facts as it is read and lets the rollout go.
    const tally = new RolloutTally();
    const { source, partial, successThreshold } = await readSource('rollouts', values, file, io, (t) => {
      if (inStep(t)) tally.add(t);
    });
    const count = tally.rows.length;
    const report = rolloutReport(tally, successThreshold);
    if (partial) io.err(`mtrl rollouts: partial: ${count} rollouts read, then ${partial}`);
    if (values.json) io.out(JSON.stringify({ ...reportJson(report), ...(partial ? { partial } : {}) }));
    else
      io.out(
        count
          ? reportText(report, where(source))
          : `no rollouts in ${where(source)}: the agent logs no rollout record (see "MTRL: Insert Rollout Logging"), and no trace, UpdateReward or tool output line was found`,
      );
    if (partial) return EXIT_USAGE;
    return count ? EXIT_CLEAN : EXIT_FINDINGS;
  },
};
