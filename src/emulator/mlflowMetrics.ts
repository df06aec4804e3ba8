import { rowsOf, TRAIN_ANSWERS, VALIDATION_ANSWERS } from './answers';
import { jobState, rolloutPhaseStart, rolloutTime } from './jobs';
import type { Job } from './jobModel';
import { playRollout } from './policy';
import { hashSeed, Random } from './random';
import { outcomeOf, type RolloutOutcome } from './rollouts';

/** One logged value: MLflow's metric point without the key. */
export interface LoggedValue {
  value: number;
  timestamp: number;
  step: number;
}

/** Token counts of one rollout from its turns: the context grows with every turn, each turn answers about 300 tokens. */
export function rolloutTokens(turns: number): { prompt: number; response: number } {
  return { prompt: 350 + 250 * turns, response: 40 + 300 * turns };
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const std = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};

/** pass@k of one prompt with c successes in n samples (the unbiased estimator: 1 − C(n−c, k) / C(n, k)). */
function passAtK(n: number, c: number, k: number): number {
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

function passKs(job: Job): number[] {
  const text = hyperParameters(job).pass_k_values ?? '[1,2,4,8,16,32]';
  try {
    const ks = JSON.parse(text) as unknown;
    return Array.isArray(ks) ? ks.filter((k): k is number => Number.isInteger(k) && k > 0) : [1];
  } catch {
    return [1];
  }
}

function hyperParameters(job: Job): Record<string, string> {
  const d = job.document as {
    TrainingConfig?: { HyperParameters?: Record<string, string> };
    EvaluationConfig?: { HyperParameters?: Record<string, string> };
  };
  return d.TrainingConfig?.HyperParameters ?? d.EvaluationConfig?.HyperParameters ?? {};
}

/** The reward, turn and token statistics of a set of rollouts played in groups of `groupSize`, under `prefix` (`rollout`, `val`, `eval`). */
function rolloutFamily(prefix: string, played: readonly RolloutOutcome[], groupSize: number, ks: number[]): Record<string, number> {
  const rewards = played.map((p) => p.reward);
  const turns = played.map((p) => p.turns);
  const tokens = turns.map(rolloutTokens);
  const responses = tokens.map((t) => t.response);
  const out: Record<string, number> = {
    [`${prefix}/reward/mean`]: mean(rewards),
    [`${prefix}/reward/std`]: std(rewards),
    [`${prefix}/reward/min`]: Math.min(...rewards),
    [`${prefix}/reward/max`]: Math.max(...rewards),
    [`${prefix}/reward/zero_frac`]: mean(rewards.map((r) => (r === 0 ? 1 : 0))),
    [`${prefix}/turns/mean`]: mean(turns),
    [`${prefix}/turns/min`]: Math.min(...turns),
    [`${prefix}/turns/max`]: Math.max(...turns),
    [`${prefix}/tokens/prompt_mean`]: mean(tokens.map((t) => t.prompt)),
    [`${prefix}/tokens/response_mean`]: mean(responses),
    [`${prefix}/tokens/response_std`]: std(responses),
    [`${prefix}/tokens/response_min`]: Math.min(...responses),
    [`${prefix}/tokens/response_max`]: Math.max(...responses),
  };
  if (prefix !== 'rollout') {
    const groups = chunk(played, groupSize);
    const solved = played.filter((p) => p.solved).length;
    Object.assign(out, {
      [`${prefix}/reward/num_prompts`]: groups.length,
      [`${prefix}/reward/rollouts_per_prompt`]: groupSize,
      [`${prefix}/reward/succeeded_rollouts`]: solved,
      [`${prefix}/reward/failed_rollouts`]: played.length - solved,
      [`${prefix}/reward/success_threshold`]: 1,
    });
    for (const k of ks.filter((k) => k <= groupSize))
      out[`${prefix}/reward/pass_at_${k}`] = mean(groups.map((g) => passAtK(g.length, g.filter((p) => p.solved).length, k)));
  }
  return out;
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Training step `step` (1-based, as the service logs it): the statistics of that step's rollouts, the very ones its logs hold. */
export function trainingStepValues(job: Job, step: number): Record<string, number> {
  const p = job.plan;
  const played = Array.from({ length: p.rolloutsPerStep }, (_, j) => outcomeOf(job, (step - 1) * p.rolloutsPerStep + j));
  const out = rolloutFamily('rollout', played, p.groupSize, []);
  const groups = chunk(played, p.groupSize).map((g) => g.map((x) => x.reward));
  const advantages = groups.flatMap((g) => g.map((r) => r - mean(g)));
  const tokens = played.map((x) => rolloutTokens(x.turns));
  const promptTokens = tokens.reduce((a, t) => a + t.prompt, 0);
  const responseTokens = tokens.reduce((a, t) => a + t.response, 0);
  const valid = played.filter((x) => x.valid);
  const stepSeconds = p.stepMs / 1000;
  Object.assign(out, {
    'rollout/reward/valid_mean': mean(valid.map((x) => x.reward)),
    'rollout/advantage/mean': mean(advantages),
    'rollout/advantage/std': std(advantages),
    'rollout/advantage/min': Math.min(...advantages),
    'rollout/advantage/max': Math.max(...advantages),
    'rollout/advantage/n_positive': advantages.filter((a) => a > 1e-9).length,
    'rollout/advantage/n_negative': advantages.filter((a) => a < -1e-9).length,
    'training/epoch': Math.floor((step - 1) / p.stepsPerEpoch) + 1,
    'training/global_step': step,
    'training/num_groups': groups.length,
    'training/num_trajectories': played.length,
    'training/num_datums': played.length,
    'training/total_tokens': promptTokens + responseTokens,
    'training/trainable_token_ratio': responseTokens / (promptTokens + responseTokens),
    'timing_s/step': stepSeconds,
    'timing_s/training': stepSeconds * 0.2,
    'timing_s/policy_update': stepSeconds * 0.12,
    'analysis/batch_completion_ratio': 1,
    'analysis/batch_valid_ratio': valid.length / played.length,
    'analysis/zero_adv_groups': groups.filter((g) => Math.max(...g) === Math.min(...g)).length,
    'analysis/reward_variance_across_groups': std(groups.map(mean)) ** 2,
    'analysis/mean_group_reward_spread': mean(groups.map((g) => Math.max(...g) - Math.min(...g))),
  });
  return roundAll(out);
}

/** Validation at `step`: every validation word played `group_size` times greedily (temperature 0 plays a little worse than sampling). */
export function validationValues(job: Job, step: number): Record<string, number> {
  const p = job.plan;
  const rows = rowsOf(VALIDATION_ANSWERS, 'val');
  const pool = [...TRAIN_ANSWERS, ...VALIDATION_ANSWERS];
  const played = rows
    .flatMap((row, i) =>
      Array.from({ length: p.groupSize }, (_, j) =>
        playRollout(row.answer ?? '', pool, p.skill(step) * 0.8, new Random(hashSeed(`${job.seed}#${job.arn}#val${step}#${i}#${j}`)), {
          feedback: false,
        }),
      ),
    )
    .map((x) => ({ reward: x.reward, solved: x.solved, turns: x.turns.length, valid: x.turns.some((t) => t.valid) }));
  return roundAll(rolloutFamily('val', played, p.groupSize, passKs(job)));
}

/** A finished evaluation: the statistics of all its rollouts (the same ones its logs hold). */
export function evaluationValues(job: Job): Record<string, number> {
  const p = job.plan;
  const played = Array.from({ length: p.rolloutsPerStep }, (_, k) => outcomeOf(job, k));
  return roundAll({ ...rolloutFamily('eval', played, p.groupSize, passKs(job)), 'timing_s/eval': p.stepMs / 1000 });
}

function roundAll(values: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, round(v)]));
}

/** Steps at which validation runs: 0, every `val_every`, and the last step (Wordle's validation words; the refund desk has none). */
export function validationSteps(job: Job): number[] {
  if (job.plan.environment !== 'wordle') return [];
  const every = Number.parseInt(hyperParameters(job).val_every ?? '10', 10);
  const last = job.plan.steps;
  const steps = new Set<number>([0, last]);
  if (every > 0) for (let s = every; s < last; s += every) steps.add(s);
  return [...steps].sort((a, b) => a - b);
}

/** When step `step` was logged: when its last rollout finished (step 0: when training started). */
export function stepTime(job: Job, step: number): number {
  return step === 0 ? rolloutPhaseStart(job) : rolloutTime(job, step * job.plan.rolloutsPerStep - 1);
}

/** Steps finished by `now`: the history grows as a running job completes them. */
export function stepsDone(job: Job, now: number): number {
  return Math.floor(jobState(job, now).completedRollouts / job.plan.rolloutsPerStep);
}
