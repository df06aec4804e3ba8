import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DocumentSchemas } from '../core/jobs/documentSchema';
import { describeEstimate } from '../core/jobs/estimate';
import { parseJobFile } from '../core/jobs/jobfile';
import { baseModelArn } from '../core/jobs/models';
import { describeCheck } from '../core/jobs/preflight';
import { DEFAULT_PRICING } from '../core/jobs/pricing';
import type { SignalReport } from '../core/signal/report';
import type { Transcript } from '../core/transcript/model';
import { ModelCatalog } from '../services/launch/modelCatalog';
import {
  defaultSignalChecksDir,
  rewardVersionOf,
  signalCheckId,
  signalChecksIn,
  type KeptSignalCheck,
  type SignalCheckKey,
  type SignalChecks,
} from '../services/signal/checks';
import {
  describeCheckSampling,
  launchSignalCheck,
  refreshSignalCheck,
  signalCheckPlanFor,
  type SignalCheckPlan,
} from '../services/signal/launchCheck';
import { awsFromOptions } from './awsOptions';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, UsageError, type CliIO } from './command';

/** The options of `mtrl signal --launch` and `--check`, as parsed. */
export interface CheckOptions {
  data?: string;
  runtime?: string;
  reward?: string;
  rows?: string;
  'group-size'?: string;
  seed: string;
  role?: string;
  'base-model'?: string;
  'mlflow-app'?: string;
  output?: string;
  training?: string;
  temperature?: string;
  'max-tokens'?: string;
  steps?: string;
  'batch-size'?: string;
  yes: boolean;
  json: boolean;
  store?: string;
  region?: string;
  endpoint?: string;
  profile?: string;
}

export const CHECK_OPTIONS = {
  launch: { type: 'boolean', default: false },
  check: { type: 'boolean', default: false },
  runtime: { type: 'string' },
  reward: { type: 'string' },
  role: { type: 'string' },
  'base-model': { type: 'string' },
  'mlflow-app': { type: 'string' },
  output: { type: 'string' },
  training: { type: 'string' },
  temperature: { type: 'string' },
  'max-tokens': { type: 'string' },
  yes: { type: 'boolean', default: false },
  store: { type: 'string' },
} as const;

/** The kept checks the command reads and writes; a damaged file is named on stderr. */
export function storeOf(o: { store?: string }, io: CliIO): SignalChecks {
  return signalChecksIn(o.store ?? defaultSignalChecksDir(), (sentence) => io.err(`mtrl signal: ${sentence}`));
}

function wholeNumber(value: string | undefined, name: string): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < 1)
    throw new UsageError(`--${name} takes a whole number ≥ 1, got '${value ?? ''}'.`);
  return n;
}

/** A reward version: a local file is named by its content's hash, anything else (a Lambda ARN:version) as given. */
function rewardVersion(reward: string): string {
  if (existsSync(reward)) return rewardVersionOf(readFileSync(reward));
  if (/\.(py|js|ts|json)$/i.test(reward))
    throw new UsageError(`--reward ${reward}: no such file (give the reward file, or a Lambda ARN:version).`);
  return reward;
}

/** The plan from the planned training job file (if given) with each flag over it. */
function planOf(o: CheckOptions, region: string): SignalCheckPlan {
  if (!o.reward) throw new UsageError('--reward names the reward version the check is kept for: a Lambda ARN:version, or a reward file.');
  const rows = wholeNumber(o.rows, 'rows');
  let plan: Partial<SignalCheckPlan> & { key: SignalCheckKey } = { key: { dataset: '', runtime: '', reward: rewardVersion(o.reward) } };
  if (o.training) {
    const parsed = parseJobFile(readText(o.training));
    if (!parsed.jobFile) throw new UsageError(`${o.training}: ${parsed.problems.map((p) => p.message).join(' ')}`);
    if (parsed.jobFile.JobCategory !== 'AgentRFT') throw new UsageError(`${o.training} is not a training job file (JobCategory AgentRFT).`);
    plan = signalCheckPlanFor(parsed.jobFile, { rows, reward: plan.key.reward, seed: o.seed });
  }
  const sampling = { ...plan.sampling };
  if (o.temperature !== undefined) sampling.temperature = o.temperature;
  if (o['max-tokens'] !== undefined) sampling.sampling_max_tokens = o['max-tokens'];
  const jobRegion = o.region ?? plan.region ?? region;
  const full = {
    ...plan,
    key: { ...plan.key, dataset: o.data ?? plan.key.dataset, runtime: o.runtime ?? plan.key.runtime },
    rows,
    seed: o.seed,
    region: jobRegion,
    groupSize: plan.groupSize ?? 0,
    roleArn: o.role ?? plan.roleArn ?? '',
    baseModelArn: o['base-model'] ?? plan.baseModelArn ?? baseModelArn(jobRegion, 'openai-reasoning-gpt-oss-20b'),
    sampling,
    ...(o['mlflow-app'] ? { mlflow: { appArn: o['mlflow-app'] } } : {}),
    ...(o.output ? { outputPath: o.output } : {}),
  };
  for (const [value, flag] of [
    [full.key.dataset, '--data s3://… (the training data)'],
    [full.key.runtime, '--runtime ARN (the agent runtime)'],
    [full.roleArn, '--role ARN (the job role)'],
  ] as const)
    if (!value) throw new UsageError(`--launch needs ${flag}, or --training FILE.mtrl.json of the planned training job.`);
  if (o['group-size'] !== undefined || !full.groupSize) full.groupSize = wholeNumber(o['group-size'], 'group-size');
  if (full.training) full.training = { ...full.training, group_size: String(full.groupSize) };
  if (o.steps !== undefined || o['batch-size'] !== undefined)
    full.plannedRollouts = wholeNumber(o.steps, 'steps') * wholeNumber(o['batch-size'], 'batch-size') * full.groupSize;
  return full;
}

function readText(file: string): string {
  try {
    // A FIFO would block this read for good: no deadline can end a synchronous read.
    if (!statSync(file).isFile()) throw new Error('not a regular file');
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/** `mtrl signal --launch`: the estimate first; the evaluation job only with --yes. */
export async function launchCheck(o: CheckOptions, io: CliIO): Promise<number> {
  const { aws, settings, explain } = awsFromOptions(o, io.signal);
  const plan = planOf(o, settings.region);
  const checks = storeOf(o, io);
  const deps = {
    aws,
    explain,
    checks,
    schemas: new DocumentSchemas(),
    models: new ModelCatalog(aws, () => []),
    pricing: () => DEFAULT_PRICING,
    smokeResults: () => ({}),
    log: (line: string, level?: 'info' | 'error') => level === 'error' && io.err(`mtrl signal: ${line}`),
  };
  try {
    const result = await launchSignalCheck(
      plan,
      deps,
      {
        review: async (job, review) => {
          io.err(
            [
              `Signal check: ${job.JobName}, ${plan.rows} rows of ${plan.key.dataset} × ${plan.groupSize} rollouts (the planned group_size)`,
              `  ${describeCheckSampling(plan)}`,
              ...review.arithmetic.map((l) => `  ${l}`),
              `  ${review.estimate ? `Cost: ${describeEstimate(review.estimate)}` : (review.estimateMissing ?? '')}`,
              ...review.checks.filter((c) => c.level !== 'pass').map((c) => `  ${describeCheck(c)}`),
            ].join('\n'),
          );
          return o.yes ? 'launch' : 'cancel';
        },
      },
      io.signal,
    );
    if (result.notKept)
      io.err(`mtrl signal: ${result.notKept} Read it with mtrl signal --job ${result.jobName} --evaluation once it completes.`);
    if (o.json) io.out(JSON.stringify({ ...result, review: result.review && { ...result.review, facts: undefined } }));
    if (result.launched) {
      if (!o.json)
        io.out(
          `Launched ${result.jobName}; the sampled rows are at ${result.sample?.uri}. mtrl signal --check shows its report once it completes.`,
        );
      return EXIT_CLEAN;
    }
    if (result.reason === 'cancelled' && !o.yes) {
      io.err('Nothing launched: run again with --yes to launch the evaluation at this cost.');
      return EXIT_USAGE;
    }
    io.err(`mtrl signal: nothing launched: ${result.reason ?? 'the launch stopped'}`);
    return result.sample ? EXIT_FINDINGS : EXIT_USAGE;
  } finally {
    aws.reset();
  }
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)} %`);

function describeKept(c: KeptSignalCheck): string {
  const where = c.route === 'cloud' ? `job ${c.jobName}` : `local, rollouts in ${c.rollouts ?? '—'}`;
  const lines = [
    `${c.at}  ${c.status.padEnd(7)}  ${c.rows} rows × ${c.groupSize}  ${c.key.dataset} · ${c.key.runtime} · reward ${c.key.reward}  (${where})`,
  ];
  const r: SignalReport | undefined = c.report;
  if (r) {
    const advice = r.recommendations[0] ? `; ${r.recommendations[0]}` : '';
    lines.push(`zero-advantage groups ${r.zeroAdvantage.groups}/${r.groups} = ${pct(r.zeroAdvantage.share)}${advice}`);
  }
  const t = c.tokensPerRollout;
  if (t) {
    const cost = c.projectedCost
      ? `; planned training job (${c.projectedCost.rollouts} rollouts): ${describeEstimate(c.projectedCost)}`
      : '';
    lines.push(`tokens per rollout: ${Math.round(t.prefill)} prefill, ${Math.round(t.sample)} sample${cost}`);
  }
  if (c.error) lines.push(c.error);
  return lines.join('\n    ');
}

/** `mtrl signal --check`: each running cloud check asked again, then the kept checks, newest first. */
export async function showChecks(o: CheckOptions, io: CliIO): Promise<number> {
  const checks = storeOf(o, io);
  let problems = 0;
  const kept = await Promise.all(
    (await checks.list()).map(async (c) => {
      if (c.route !== 'cloud' || c.status !== 'running') return c;
      const { aws, explain } = awsFromOptions({ ...o, region: c.region ?? o.region }, io.signal);
      try {
        return await refreshSignalCheck(c, { aws, explain, checks }, io.signal);
      } catch (error) {
        problems++;
        io.err(`mtrl signal: ${explain(error, `Refreshing the signal check ${c.jobName}`, c.region)}`);
        return c;
      } finally {
        aws.reset();
      }
    }),
  );
  if (o.json) io.out(JSON.stringify(kept));
  else io.out(kept.length ? kept.map(describeKept).join('\n') : 'No signal checks kept yet: mtrl signal --launch … or --local … runs one.');
  return problems ? EXIT_FINDINGS : EXIT_CLEAN;
}

type LocalCheckOptions = { data?: string; local: string; server?: string; reward?: string; store?: string; 'transcripts-out'?: string };

/** A local check's key (the data path, the agent file or rollout server, and the reward file's hash: the agent's own when none is given, a server's URL) and
 * where its rollouts are kept: --transcripts-out, else beside the check so the board can open them later. */
export function localCheckPlace(o: LocalCheckOptions) {
  const key = {
    dataset: path.resolve(o.data ?? ''),
    runtime: o.server ?? path.resolve(o.local),
    reward: o.reward ? rewardVersion(o.reward) : (o.server ?? rewardVersionOf(readText(o.local))),
  };
  const store = o.store ?? defaultSignalChecksDir();
  const given = o['transcripts-out'] && path.resolve(o['transcripts-out']);
  return { key, given: !!given, rollouts: given || path.join(store, 'rollouts', `${signalCheckId(key)}.jsonl`) };
}

/** Keeps a local check and, without --transcripts-out, its rollouts. */
export async function keepLocalCheck(
  o: LocalCheckOptions,
  run: {
    groupSize: number;
    rows: number;
    transcripts: Transcript[];
    report: SignalReport;
    problem?: string;
    at: Date;
    tokens: Pick<KeptSignalCheck, 'tokensPerRollout' | 'projectedCost'>;
  },
  io: CliIO,
): Promise<void> {
  const { key, given, rollouts } = localCheckPlace(o);
  if (!given) {
    await mkdir(path.dirname(rollouts), { recursive: true });
    await writeFile(rollouts, run.transcripts.map((t) => JSON.stringify(t)).join('\n') + (run.transcripts.length ? '\n' : ''));
  }
  await storeOf(o, io).keep({
    key,
    at: run.at.toISOString(),
    route: 'local',
    status: run.problem ? 'failed' : 'done',
    groupSize: run.groupSize,
    rows: run.rows,
    report: run.report,
    rollouts,
    ...run.tokens,
    ...(run.tokens.projectedCost ? { plannedRollouts: run.tokens.projectedCost.rollouts } : {}),
    ...(run.problem ? { error: run.problem } : {}),
  });
  // On stderr, so --json stays one object: where to find them for `mtrl reward FILE --rescore` or the board.
  io.err(`rollouts kept in ${rollouts}`);
}
