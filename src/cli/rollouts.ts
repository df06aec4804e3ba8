import { createReadStream } from 'node:fs';
import { AWS_OPTIONS, awsFromOptions } from './awsOptions';
import {
  ADVANTAGE_FORMULA,
  collectRollouts,
  groupRollouts,
  skippedLineNotes,
  stepSummaries,
  summarize,
  type Rollout,
  type RolloutSummary,
  type SkippedLine,
  type StepSummary,
} from '../core/rollouts';
import { readJobRollouts } from '../services/rolloutLogs';
import { MlflowError } from '../aws/mlflow/answers';
import { describeMlflowError } from '../aws/mlflow/errors';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, parseOptions, UsageError, type CliCommand, type CliIO } from './command';

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** GRPO's groups as `--json` reports them: one task in one step; pooled ones are those of unknown step. */
interface GrpoReport {
  steps: StepSummary[];
  pooledGroups: number;
  unknownStepRollouts: number;
  zeroAdvantageGroups: number;
}

/** The `--json` shape: the issue-9 fields first (scripts compare runs with them), then steps and GRPO groups. */
function rolloutsJson(s: RolloutSummary, grpo: GrpoReport): object {
  return {
    rollouts: s.rollouts,
    groups: s.groups,
    solved: s.solved,
    solve_rate: round(s.solveRate),
    reward: s.reward
      ? { mean: round(s.reward.mean), min: round(s.reward.min), max: round(s.reward.max) }
      : { mean: null, min: null, max: null },
    guesses_to_solve: Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [String(n), s.guessesToSolve[n]])),
    steps: grpo.steps.map((st) => ({
      step: st.step,
      rollouts: st.rollouts,
      groups: st.groups,
      solve_rate: round(st.solveRate),
      reward_mean: st.rewardMean === null ? null : round(st.rewardMean),
      zero_advantage_groups: st.zeroAdvantageGroups,
    })),
    grpo_groups: {
      groups: s.groups,
      pooled: grpo.pooledGroups,
      step_unknown_rollouts: grpo.unknownStepRollouts,
      zero_advantage: grpo.zeroAdvantageGroups,
      advantage: ADVANTAGE_FORMULA,
    },
  };
}

function human(s: RolloutSummary, grpo: GrpoReport, source: string): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = [
    `${s.rollouts} rollouts in ${s.groups} GRPO groups from ${source}`,
    `solved ${s.solved} (${pct(s.solveRate)}), lost ${s.lost}, no play ${s.noPlay}`,
    s.reward ? `reward mean ${round(s.reward.mean)}, min ${round(s.reward.min)}, max ${round(s.reward.max)}` : 'reward: none logged',
    `mean valid guesses ${round(s.meanGuesses)}`,
    `guesses to solve: ${[1, 2, 3, 4, 5, 6].map((n) => `${n}: ${s.guessesToSolve[n]}`).join('  ')}`,
  ];
  if (grpo.unknownStepRollouts) {
    lines.push(
      `step unknown for ${grpo.unknownStepRollouts} rollouts: their ${grpo.pooledGroups} groups pool every step of a task, so their advantages are not the policy's`,
    );
  }
  if (grpo.steps.length) {
    lines.push(
      `${grpo.zeroAdvantageGroups} groups with all rewards equal (advantage 0); ${ADVANTAGE_FORMULA}`,
      'step  rollouts  solve rate  reward mean',
    );
    for (const st of grpo.steps)
      lines.push(
        `${String(st.step).padStart(4)}  ${String(st.rollouts).padStart(8)}  ${pct(st.solveRate).padStart(10)}  ${st.rewardMean === null ? '–' : round(st.rewardMean)}`,
      );
  }
  return lines.join('\n');
}

const usage = [
  'Usage: mtrl rollouts <file|-> [--step N] [--json]',
  '       mtrl rollouts --job <name> [--evaluation] [--step N] [--from log|traces] [--region R] [--endpoint URL] [--profile P] [--json]',
  '',
  'Reads rollout records (and, without them, SDK reward lines and tool feedback text) from a log file,',
  "a CloudWatch export or `aws logs tail` output, or a job's runtime log (or, when it holds no rollout record,",
  "the job's MLflow traces), and prints solve rate, rewards, guesses to solve, and per training step the solve",
  "rate and mean reward. GRPO groups are one task in one step; a rollout's step comes from its record, else its",
  "trace, else the job's service log step lines.",
  '',
  '  --job         a training job name (--evaluation: an evaluation job) read through the AWS endpoint',
  '  --step        only the rollouts of this training step',
  "  --from        log: the runtime log only; traces: the MLflow run's traces only (default: the best there is)",
  '  --region, --endpoint, --profile   where the job is (the endpoint also from AWS_ENDPOINT_URL)',
  '',
  "Exit code 1 when the input holds no rollout at all; 2 when a job's read stopped part-way (the summary is of what was",
  'read, marked partial, and the error says why).',
].join('\n');

/** A log file's (or streamed standard input's) rollouts; lines over the cap go to stderr, so the --json shape stays what scripts expect. */
async function fromFile(file: string, io: CliIO): Promise<Rollout[]> {
  const skipped: SkippedLine[] = [];
  let rollouts: Rollout[];
  try {
    rollouts = await collectRollouts(file === '-' ? io.stdin() : createReadStream(file), undefined, skipped);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `cannot read ${file}: no such file` : `cannot read ${file}: ${(error as Error).message}`);
  }
  for (const note of skippedLineNotes(skipped)) io.err(`mtrl rollouts: ${note}.`);
  return rollouts;
}

export const rolloutsCommand: CliCommand = {
  name: 'rollouts',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: {
        json: { type: 'boolean' },
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
      throw new UsageError('give one log file (or - for standard input), or --job <name>');
    const step = values.step === undefined ? undefined : Number(values.step);
    if (step !== undefined && !(Number.isInteger(step) && step >= 0))
      throw new UsageError(`--step takes a step number, not "${values.step}"`);
    if (values.from !== undefined && values.from !== 'log' && values.from !== 'traces')
      throw new UsageError(`--from takes log or traces, not "${values.from}"`);
    if (values.from !== undefined && !values.job) throw new UsageError('--from goes with --job');
    let rollouts: Rollout[];
    let source: string;
    let stoppedBy: unknown;
    /** Why a job's read stopped part-way: the summary is of what was read before it. */
    let partial: string | undefined;
    if (values.job) {
      const { aws, settings, explain } = awsFromOptions(values);
      const job = {
        jobName: values.job,
        category: values.evaluation ? ('AgentRFTEvaluation' as const) : ('AgentRFT' as const),
        region: settings.region,
      };
      let from: 'log' | 'traces';
      // Our own sentences are plain Errors; the services' errors (SDK, MLflow, paging) become sentences naming service, endpoint and fix.
      const sentence = (error: unknown, action: string) =>
        error instanceof MlflowError
          ? describeMlflowError(error, { profile: settings.profile, endpoint: settings.endpoint, region: settings.region, action })
          : error instanceof Error && error.constructor === Error
            ? error.message
            : explain(error, action);
      try {
        ({ rollouts, from, stoppedBy } = await readJobRollouts(
          aws,
          job,
          io.signal ?? new AbortController().signal,
          values.from ?? 'best',
          (limit) =>
            io.err(`mtrl rollouts: read the newest ${limit.toLocaleString('en')} traces of job ${values.job}; older ones were not read.`),
        ));
      } catch (error) {
        throw new UsageError(sentence(error, `Read the rollouts of job ${values.job}`));
      } finally {
        aws.reset();
      }
      source = from === 'traces' ? `job ${values.job} (its MLflow traces)` : `job ${values.job}`;
      if (stoppedBy !== undefined) {
        partial = sentence(stoppedBy, `Reading the rollouts of job ${values.job} to the end`);
        source += ' (partial)';
      }
    } else {
      rollouts = await fromFile(file, io);
      source = file === '-' ? 'standard input' : file;
    }
    if (step !== undefined) {
      rollouts = rollouts.filter((r) => r.step === step);
      source += `, step ${step}`;
    }
    const grouping = groupRollouts(rollouts);
    const summary = summarize(rollouts, grouping.groups.length);
    const { steps, unknown } = stepSummaries(rollouts, grouping);
    const grpo: GrpoReport = {
      steps,
      pooledGroups: grouping.groups.filter((g) => g.step === undefined).length,
      unknownStepRollouts: unknown,
      zeroAdvantageGroups: steps.reduce((n, s) => n + s.zeroAdvantageGroups, 0),
    };
    if (partial) io.err(`mtrl rollouts: partial: ${rollouts.length} rollouts read, then ${partial}`);
    if (values.json) io.out(JSON.stringify({ ...rolloutsJson(summary, grpo), ...(partial ? { partial } : {}) }));
    else
      io.out(
        rollouts.length
          ? human(summary, grpo, source)
          : `no rollouts in ${source}: the agent logs no rollout record (see "MTRL: Insert Rollout Logging") and no UpdateReward or feedback lines were found`,
      );
    if (partial) return EXIT_USAGE;
    return rollouts.length ? EXIT_CLEAN : EXIT_FINDINGS;
  },
};
