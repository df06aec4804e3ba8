import { TRAIN_ANSWERS, VALIDATION_ANSWERS } from './answers';
import { jobState, rolloutTime, type Job } from './jobs';
import { playRollout, type PlayedRollout } from './policy';
import { hashSeed, Random } from './random';

/** Words the scripted player guesses from. */
const POOL: readonly string[] = [...TRAIN_ANSWERS, ...VALIDATION_ANSWERS];

export interface RolloutLines {
  timestamp: number;
  played: PlayedRollout;
  trajectoryId: string;
  rowId: string;
  /** The training step (1-based); undefined for an evaluation. */
  step?: number;
  /** The rollout record (src/core/rollouts/record.ts), then the SDK's CompleteRollout and UpdateReward lines. */
  lines: [string, string, string];
}

/** The task (dataset row) of rollout k: one per group of a step's batch. */
function rowOf(job: Job, k: number) {
  const p = job.plan;
  const step = Math.floor(k / p.rolloutsPerStep);
  const task = Math.floor((k % p.rolloutsPerStep) / p.groupSize);
  return p.rows[(step * p.batchSize + task) % p.rows.length];
}

/** The game of rollout k without its log lines (what metrics need), the same every time: seeded by --seed, the job ARN and k. */
export function playedRolloutOf(job: Job, k: number): PlayedRollout {
  const step = Math.floor(k / job.plan.rolloutsPerStep);
  return playRollout(rowOf(job, k).answer, POOL, job.plan.skill(step), new Random(hashSeed(`${job.seed}#${job.arn}#${k}`)));
}

/** Rollout k of a job with its log lines. */
export function rolloutOf(job: Job, k: number): RolloutLines {
  const p = job.plan;
  const step = Math.floor(k / p.rolloutsPerStep);
  const row = rowOf(job, k);
  const played = playedRolloutOf(job, k);
  const id = `${hashSeed(job.arn).toString(16).padStart(8, '0')}-${step}-${k % p.rolloutsPerStep}`;
  const record = {
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
    // 1-based like the service log's "Step N/M" lines and MLflow's metric steps; an evaluation has no training step.
    ...(job.category === 'AgentRFT' ? { step: step + 1 } : {}),
  };
  return {
    timestamp: rolloutTime(job, k),
    played,
    trajectoryId: id,
    rowId: row.id,
    step: record.step,
    lines: [
      JSON.stringify(record),
      `CompleteRollout: trajectory_id=${id} status=ready`,
      `UpdateReward: trajectory_id=${id} rewards=[${played.reward}]`,
    ],
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
    const played = playedRolloutOf(job, k);
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
