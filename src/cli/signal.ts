import { packVerdictsText, summaryKeeper } from '../core/rollouts';
import { outsideText } from '../core/text/display';
import { componentSpreadLines, outcomeTiedSentence } from '../core/signal/componentSpread';
import { signalReport, type SignalReport } from '../core/signal/report';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, parseOptions, UsageError, type CliCommand } from './command';
import { PYTHON_OVER_ROLLOUTS_OPTIONS, readSource, requireRollouts, SOURCE_USAGE } from './rolloutSource';
import { CHECK_OPTIONS, keepLocalCheck, launchCheck, localCheckPlace, showChecks, type CheckOptions } from './signalCheck';
import { playLocally, tokenLines, type LocalOptions } from './signalLocal';

const usage = `Usage: mtrl signal <file|dir> [--data DATASET] [--success-threshold X] [--json]
       mtrl signal --job <evaluation job> --evaluation [--region R] [--endpoint URL] [--profile P] [--json]
       mtrl signal --local AGENT.py --data DATASET --rows K --group-size G [--seed S]
                   [--policy emulator[:SKILL]|URL] [--endpoint-env VAR] [--steps N --batch-size B] [--transcripts-out FILE] [--reward FILE]
                   [--store DIR] [--json]
       mtrl signal --local --server URL --data DATASET --rows K --group-size G [the options of --local but --endpoint-env]
       mtrl signal --launch --data s3://… --runtime ARN --reward VERSION --rows K --group-size G --role ARN
                   [--training FILE.mtrl.json] [--seed S] [--mlflow-app ARN] [--yes] [--store DIR] [--json]
       mtrl signal --check [--store DIR] [--json]

Will this run learn? GRPO learns only from tasks whose rollouts score differently. From
rollouts played G times per task (an evaluation job with eval_group_size = the planned
group_size, its traces or logs, or mtrl rollouts … --transcripts), prints the reward distribution, how many
of G rollouts solved each task, the share of groups with zero advantage, the estimated
share at other group sizes, and what to change.

On this machine (--local): plays K rows (sampled with the seed) × G rollouts of the agent's
@app.entrypoint (or @sagemaker_rft_handler) function in python, with the service's payload; its
model calls go to a local job runtime (the payload's metadata.endpoint) that forwards them to
the policy and records each rollout. Run it only on an agent you trust: its code runs here.
With --server, a running customer rollout server (the SDK's POST /rollout, GET /health contract)
plays each rollout instead: GET /health first, then the SDK's RolloutRequest per rollout; its reward
comes from its complete-rollout/update-reward calls to metadata.endpoint, or the answer's reward.

In the cloud (--launch): samples K rows of the training data with the seed, writes them beside it
(<folder>/mtrl-signal-check/<hash>.jsonl; your objects are never written) and, after the pre-flight
and cost estimate, starts an AgentRFTEvaluation of the unchanged agent with eval_group_size = G and
training's temperature and max tokens. Without --yes it only prints the estimate (exit 2).
--check asks each running check's job again and prints the kept checks, newest first; a completed
job's report is built from its traces. Checks are kept per dataset + runtime + reward version in
--store (default: the user's cache folder, mtrl-workbench/signal-checks).

Options:
${SOURCE_USAGE}
  --local AGENT.py        the agent file to run locally
  --server URL            with --local (no file): a rollout server's base URL (http://host:port) that plays the rollouts
  --data FILE             the dataset the agent plays (JSON Lines, JSON, CSV or Parquet with a prompt column)
  --rows K                rows to sample;  --group-size G  rollouts per row (the planned group_size)
  --seed S                picks the rows (default 1)
  --policy P              emulator (the scripted policy, skill 0.5), emulator:0.9, or an OpenAI-compatible
                          base URL such as http://localhost:8000/v1 (vLLM), http://localhost:11434/v1
                          (Ollama) or Bedrock's; its API key from --api-key-env VAR (default
                          MTRL_POLICY_API_KEY) or AWS_BEARER_TOKEN_BEDROCK
  --model NAME            the model name sent to a URL policy (default: the agent's own)
  --endpoint-env VAR      for an agent that reads a fixed endpoint from VAR (the demo's RFT_RUNTIME_ENDPOINT): VAR is
                          set to the local runtime's base URL (…/v1); its calls go to the rollout their
                          X-Amzn-SageMaker-Trajectory-Id header names (the SDK's wrap_model sends it), else need
                          --concurrency 1. The payload's metadata.endpoint is the base without /v1 (see docs/local-route.md)
  --concurrency N         rollouts at once (default 4);  --timeout SECONDS  per rollout (default 300)
  --python PATH           the interpreter (default python3)
  --steps N --batch-size B  project the planned job's cost from the tokens measured here
  --transcripts-out FILE  keep the rollouts (JSON Lines) for the board and mtrl reward … --rescore
  --reward VERSION        the reward version a check is kept for: a Lambda ARN:version, or a file (its content's
                          hash); locally it defaults to the agent file (its reward is inside)
  --store DIR             where checks are kept (default: the user's cache folder)
  --launch                the cloud check: --data s3://…, --runtime ARN, --reward, --rows K, --group-size G,
                          --role ARN; or --training FILE.mtrl.json, the planned training job, for all but --rows
                          and --reward (flags override it). Also --base-model ARN (default gpt-oss-20b),
                          --mlflow-app ARN (its traces make the report), --output s3://…, --temperature,
                          --max-tokens (default: the training job's, else the recipe's); --steps N --batch-size B
                          price the planned job from the tokens the check measures
  --yes                   launch at the estimated cost (without it the estimate is printed and nothing starts)
  --check                 refresh and print the kept checks
  --json                  the whole report as one JSON object

Exit code: 0 a learning signal in most groups, 1 half or more of the groups teach nothing, no task has
two rollouts (or, locally, the agent ignores the endpoint or cannot run), 2 the rollouts cannot be read.`;

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)} %`);

/** The report as text; `played` when this command played the rollouts just now (one batch: no step to pool). */
function text(r: SignalReport, source: string, { advise = true, played = false } = {}): string {
  const lines = [
    r.groups
      ? `${r.rollouts} rollouts of ${r.groups} tasks (${r.groupSize} per task) from ${source}`
      : `${r.rollouts} rollouts from ${source}, none grouped with another by task`,
  ];
  if (r.stepUnknownGroups && !played) lines.push(`  ${r.stepUnknownGroups} groups have no known step: each pools every step of its task`);
  if (r.singleRolloutGroups) lines.push(`  ${r.singleRolloutGroups} more tasks have a single rollout: nothing to compare it with`);
  lines.push(`  solved: ${r.solved} (reward ≥ ${r.successThreshold})${packVerdictsText(r.packVerdicts ?? {})}`);
  if (r.rewards)
    lines.push(`  reward: mean ${r.rewards.mean.toFixed(3)}, min ${r.rewards.min.toFixed(2)}, max ${r.rewards.max.toFixed(2)}`);
  if (r.failed)
    lines.push(`  failed rollouts: ${r.failed} (each counts as reward 0, as in training: a group of failed rollouts looks never solved)`);
  lines.push(`  tasks by rollouts that succeeded (reward ≥ ${r.successThreshold}):`);
  const widest = Math.max(1, ...r.solvedBy);
  r.solvedBy.forEach((n, k) =>
    lines.push(`    ${String(k).padStart(2)}/${r.groupSize}  ${String(n).padStart(5)}  ${'█'.repeat(Math.round((n / widest) * 30))}`),
  );
  if (r.tasksOfOtherSize)
    lines.push(`    (${r.tasksOfOtherSize} more tasks have another number of rollouts than ${r.groupSize}: not in this histogram)`);
  const z = r.zeroAdvantage;
  const tied = outcomeTiedSentence(r, r.groups);
  lines.push(
    `  zero-advantage groups: ${z.groups}/${r.groups} = ${pct(z.share)} (${z.alwaysSolved} always solved, ${z.neverSolved} never solved, ${z.samePartialCredit} the same partial credit)`,
    `  mean within-group spread: ${r.meanWithinGroupSpread === null ? 'n/a' : r.meanWithinGroupSpread.toFixed(3)}`,
    // Component names are the agent's metrics keys: text from outside, one line each.
    ...componentSpreadLines(r).map((line) => `    ${outsideText(line)}`),
    ...(r.atGroupSize.length
      ? [`  estimated zero-advantage share by group size: ${r.atGroupSize.map((g) => `G=${g.groupSize} ${pct(g.share)}`).join(', ')}`]
      : []),
    ...[...(tied ? [outsideText(tied)] : []), ...(r.warnings ?? [])].map((w) => `  ! ${w}`),
  );
  if (advise) lines.push('', ...r.recommendations.map((s) => `- ${s}`));
  return lines.join('\n');
}

/** Why a local check ended before its rollouts did: the deadline names its fix, a cancel only says so. */
function cutShort(signal: AbortSignal | undefined, played: number, planned: number): string {
  const covers = `the report covers the ${played} of ${planned} rollouts played so far, too few to advise on`;
  return (signal?.reason as Error | undefined)?.name === 'TimeoutError'
    ? `Stopped at the deadline: ${covers}. Give the check longer with --deadline S (a rollout can take up to --timeout).`
    : `Cancelled: ${covers}.`;
}

export const signalCommand: CliCommand = {
  name: 'signal',
  usage,
  async run(args, io) {
    // `--local --server URL`: --local takes no file then.
    const given = args.map((a, i) => (a === '--local' && (args[i + 1] ?? '--').startsWith('--') ? '--local=' : a));
    const { values, positionals } = parseOptions(given, usage, {
      allowPositionals: true,
      options: {
        ...PYTHON_OVER_ROLLOUTS_OPTIONS,
        local: { type: 'string' },
        server: { type: 'string' },
        rows: { type: 'string' },
        'group-size': { type: 'string' },
        seed: { type: 'string', default: '1' },
        policy: { type: 'string', default: 'emulator' },
        model: { type: 'string' },
        'api-key-env': { type: 'string', default: 'MTRL_POLICY_API_KEY' },
        'endpoint-env': { type: 'string' },
        concurrency: { type: 'string', default: '4' },
        timeout: { type: 'string', default: '300' },
        'batch-size': { type: 'string' },
        'transcripts-out': { type: 'string' },
        ...CHECK_OPTIONS,
      },
    });
    const threshold = Number(values['success-threshold'] ?? '1.0');
    if (!Number.isFinite(threshold)) throw new UsageError(`--success-threshold takes a number, not "${values['success-threshold']}"`);
    // No group at all is no evidence of a signal: a CI gate must not pass on it.
    const verdict = (r: SignalReport) => (r.zeroAdvantage.share === null || r.zeroAdvantage.share >= 0.5 ? EXIT_FINDINGS : EXIT_CLEAN);
    if (values.launch || values.check) {
      if (positionals.length || values.local !== undefined || values.job)
        throw new UsageError('--launch and --check take no rollouts file, --job or --local.');
      if (values.launch && values.check) throw new UsageError('give --launch or --check, not both.');
      return values.launch ? launchCheck(values as CheckOptions, io) : showChecks(values as CheckOptions, io);
    }
    if (values.server !== undefined && values.local !== '')
      throw new UsageError('--server goes with --local and no agent file: mtrl signal --local --server URL --data … .');
    if (values.local === '' && values.server === undefined) throw new UsageError('--local takes an agent file, or --server URL.');
    if (values.server !== undefined && values['endpoint-env'] !== undefined)
      throw new UsageError('--endpoint-env sets a variable of an agent this command starts; a running server keeps its own environment.');
    if (values.local !== undefined) {
      if (positionals.length) throw new UsageError('--local plays the rollouts itself: give no transcripts file.');
      const options = values as LocalOptions;
      const at = new Date();
      const { result, groupSize, rows } = await playLocally(options, io);
      // The real cause first, one line per kind of trouble: the report's advice waits for rollouts that played.
      const problems = [
        ...(result.agentProblem ? [result.agentProblem] : []),
        ...(result.ignoredEndpoint ? [result.ignoredEndpoint] : []),
        ...result.diagnosis.map((d) => d.sentence),
      ];
      const problem = problems.length ? problems.join('\n') : undefined;
      // Advice on tasks from a check cut short would read the missing rollouts as missing tasks.
      const rescore = `--rescore ${localCheckPlace(options).rollouts}`;
      const report = { ...signalReport(result.transcripts, threshold, rescore), ...(result.cancelled ? { recommendations: [] } : {}) };
      const tokens = tokenLines(result, groupSize, options);
      const run = { groupSize, rows, transcripts: result.transcripts, report, problem, at, tokens: tokens.json };
      if (!result.cancelled)
        await keepLocalCheck(values as LocalOptions, run, io).catch((error: Error) =>
          io.err(`mtrl signal: the result was not kept: ${error.message}`),
        );
      if (values.json)
        io.out(
          JSON.stringify({
            ...report,
            ...tokens.json,
            ...(problem ? { problem, diagnosis: result.diagnosis } : {}),
            cancelled: result.cancelled,
          }),
        );
      else {
        if (problem) io.out(problem);
        io.out(
          [
            text(report, `${options.server ?? options.local} played locally`, { advise: !problem && !result.cancelled, played: true }),
            ...tokens.lines,
          ].join('\n'),
        );
        if (result.cancelled) io.out(cutShort(io.signal, result.transcripts.length, rows * groupSize));
      }
      return problem ? EXIT_FINDINGS : verdict(report);
    }
    if (values.job ? positionals.length : positionals.length !== 1)
      throw new UsageError('give one file or folder of rollouts (e.g. mtrl rollouts … --transcripts > run.jsonl), or --job <name>');
    // Only what the report reads is kept: 100,000 rollouts held whole took 800 MB.
    const read = await readSource('signal', values, positionals[0], io, summaryKeeper());
    const { rollouts, source, partial, successThreshold } = requireRollouts(read);
    if (partial) io.err(`mtrl signal: partial: ${rollouts.length} rollouts read, then ${partial}`);
    const report = signalReport(
      rollouts,
      successThreshold,
      values.job ? `--job ${values.job}${values.evaluation ? ' --evaluation' : ''}` : `--rescore ${positionals[0]}`,
    );
    io.out(values.json ? JSON.stringify({ ...report, ...(partial ? { partial } : {}) }) : text(report, source));
    return partial ? EXIT_USAGE : verdict(report);
  },
};
