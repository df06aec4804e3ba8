import { TRAIN_ANSWERS, VALIDATION_ANSWERS, type DatasetRow } from './answers';
import type { Episode } from './episode';
import { jobState, rolloutTime } from './jobs';
import type { Job } from './jobModel';
import { playRollout, type PlayedRollout } from './policy';
import { hashSeed, Random } from './random';
import { firstMessage, playRefund } from './refund/agent';
import { wordleEpisode } from './wordleEpisode';

/** Words the scripted player guesses from. */
const POOL: readonly string[] = [...TRAIN_ANSWERS, ...VALIDATION_ANSWERS];

export interface RolloutLines {
  timestamp: number;
  trajectoryId: string;
  /** The training step (1-based); undefined for an evaluation. */
  step?: number;
  /** The rollout record (src/core/rollouts/record.ts) when the agent logs one (Wordle), then the SDK's CompleteRollout and UpdateReward lines. */
  lines: string[];
}

/** What the metrics need of a rollout, without building its transcript. */
export interface RolloutOutcome {
  reward: number;
  solved: boolean;
  /** Model calls (Wordle: guesses, as its metrics have always counted them). */
  turns: number;
  valid: boolean;
}

/** The task (dataset row) of rollout k: one per group of a step's batch, so a step plays `global_batch_size` distinct rows. */
export function rowOf(job: Job, k: number): DatasetRow {
  const p = job.plan;
  const step = Math.floor(k / p.rolloutsPerStep);
  const task = Math.floor((k % p.rolloutsPerStep) / p.groupSize);
  return p.rows[(step * p.batchSize + task) % p.rows.length];
}

const randomOf = (job: Job, k: number) => new Random(hashSeed(`${job.seed}#${job.arn}#${k}`));
const skillOf = (job: Job, k: number) => job.plan.skill(Math.floor(k / job.plan.rolloutsPerStep));

/** The Wordle game of rollout k, the same every time: seeded by --seed, the job ARN and k. */
function wordleGameOf(job: Job, k: number, { feedback = false } = {}): PlayedRollout {
  return playRollout(rowOf(job, k).answer ?? '', POOL, skillOf(job, k), randomOf(job, k), { feedback });
}

/** Rollout k as its agent lived it: the first message, the model calls and tool calls, the reward. */
export function episodeOf(job: Job, k: number): Episode {
  const row = rowOf(job, k);
  if (job.plan.environment === 'refund') return playRefund(row.prompt, skillOf(job, k), randomOf(job, k));
  return wordleEpisode(row.prompt, wordleGameOf(job, k, { feedback: true }));
}

/** Rollout k's first user message alone (what `traces/search` previews), without playing the rollout. */
export function firstMessageOf(job: Job, k: number): string {
  const row = rowOf(job, k);
  return job.plan.environment === 'refund' ? firstMessage(row.prompt, randomOf(job, k)) : row.prompt;
}

/** Rollout k's reward, success, turns and validity (Wordle's without building text). */
export function outcomeOf(job: Job, k: number): RolloutOutcome {
  if (job.plan.environment === 'refund') {
    const e = episodeOf(job, k);
    return { reward: e.reward, solved: e.solved, turns: e.turns.length, valid: e.valid };
  }
  const played = wordleGameOf(job, k);
  return { reward: played.reward, solved: played.solved, turns: played.turns.length, valid: played.turns.some((t) => t.valid) };
}

/** Rollout k of a job with its log lines. */
export function rolloutOf(job: Job, k: number): RolloutLines {
  const p = job.plan;
  const step = Math.floor(k / p.rolloutsPerStep);
  const id = `${hashSeed(job.arn).toString(16).padStart(8, '0')}-${step}-${k % p.rolloutsPerStep}`;
  // 1-based like the service log's "Step N/M" lines and MLflow's metric steps; an evaluation has no training step.
  const trainingStep = job.category === 'AgentRFT' ? step + 1 : undefined;
  const reward = p.environment === 'wordle' ? undefined : episodeOf(job, k).reward;
  const record = p.environment === 'wordle' ? wordleRecord(job, k, id, trainingStep) : undefined;
  return {
    timestamp: rolloutTime(job, k),
    trajectoryId: id,
    step: trainingStep,
    lines: [
      ...(record ? [JSON.stringify(record)] : []),
      `CompleteRollout: trajectory_id=${id} status=ready`,
      `UpdateReward: trajectory_id=${id} rewards=[${record?.reward ?? reward}]`,
    ],
  };
}

function wordleRecord(job: Job, k: number, id: string, step: number | undefined) {
  const row = rowOf(job, k);
  const played = wordleGameOf(job, k);
  return {
    mtrl_rollout: 1,
    trajectory_id: id,
    job_arn: job.arn,
    row_id: row.id,
    answer: played.answer,
    turns: played.turns.map((t) => ({ guess: t.guess, ...(t.valid ? { marks: t.marks } : { valid: false }), source: t.source })),
    solved: played.solved,
    reward: played.reward,
    outcome: played.outcome,
    shaping: played.shaping,
    ...(step !== undefined ? { step } : {}),
  };
}

/** Probability that at least one of k rollouts drawn from n, c of them solved, is solved (the unbiased pass@k estimator). */
function passAtK(n: number, c: number, k: number): number {
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/** The `eval/*` metrics of a finished evaluation (its rollouts are few: a dataset's rows × eval_group_size). */
export function evaluationMetrics(job: Job, now: number): Record<string, number> {
  const n = jobState(job, now).completedRollouts;
  const group = job.plan.groupSize;
  let reward = 0;
  let solved = 0;
  const solvedByPrompt = new Map<number, number>();
  for (let k = 0; k < n; k++) {
    const played = outcomeOf(job, k);
    reward += played.reward;
    if (played.solved) {
      solved++;
      solvedByPrompt.set(Math.floor(k / group), (solvedByPrompt.get(Math.floor(k / group)) ?? 0) + 1);
    }
  }
  const prompts = Math.floor(n / group);
  const round = (x: number) => Math.round(x * 10000) / 10000;
  const metrics: Record<string, number> = {
    'eval/reward/mean': round(n ? reward / n : 0),
    'eval/num_trajectories': n,
    'eval/reward/succeeded_rollouts': solved,
    'eval/reward/failed_rollouts': n - solved,
    'eval/reward/num_prompts': prompts,
    'eval/reward/rollouts_per_prompt': group,
  };
  for (let k = 1; k <= group; k *= 2) {
    let sum = 0;
    for (let p = 0; p < prompts; p++) sum += passAtK(group, solvedByPrompt.get(p) ?? 0, k);
    metrics[`eval/reward/pass_at_${k}`] = round(k === 1 ? (n ? solved / n : 0) : prompts ? sum / prompts : 0);
  }
  return metrics;
}
