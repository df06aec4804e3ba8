import { TRAIN_ANSWERS, VALIDATION_ANSWERS } from './answers';
import { jobState, rolloutTime, type Job } from './jobs';
import { playRollout, type PlayedRollout } from './policy';
import { hashSeed, Random } from './random';

/** Words the scripted player guesses from. */
const POOL: readonly string[] = [...TRAIN_ANSWERS, ...VALIDATION_ANSWERS];

export interface RolloutLines {
  timestamp: number;
  played: PlayedRollout;
  /** The rollout record (issue 9's contract), then the SDK's CompleteRollout and UpdateReward lines. */
  lines: [string, string, string];
}

/** Rollout k of a job, the same every time it is asked for: seeded by --seed, the job ARN and k. */
export function rolloutOf(job: Job, k: number): RolloutLines {
  const p = job.plan;
  const step = Math.floor(k / p.rolloutsPerStep);
  const task = Math.floor((k % p.rolloutsPerStep) / p.groupSize);
  const row = p.rows[(step * p.batchSize + task) % p.rows.length];
  const rng = new Random(hashSeed(`${job.seed}#${job.arn}#${k}`));
  const played = playRollout(row.answer, POOL, p.skill(step), rng);
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
    // 1-based like the service log's "Step N/M" lines and MLflow's metric steps.
    step: step + 1,
  };
  return {
    timestamp: rolloutTime(job, k),
    played,
    lines: [JSON.stringify(record), `CompleteRollout: trajectory_id=${id} status=ready`, `UpdateReward: trajectory_id=${id} rewards=[${played.reward}]`],
  };
}

/** Mean reward and pass@1 of a finished evaluation (its rollouts are few: a dataset's rows × eval_group_size). */
export function evaluationMetrics(job: Job, now: number): Record<string, number> {
  const n = jobState(job, now).completedRollouts;
  let reward = 0;
  let solved = 0;
  for (let k = 0; k < n; k++) {
    const { played } = rolloutOf(job, k);
    reward += played.reward;
    if (played.solved) solved++;
  }
  const round = (x: number) => Math.round(x * 10000) / 10000;
  return { 'eval/reward/mean': round(n ? reward / n : 0), 'eval/reward/pass_at_1': round(n ? solved / n : 0), 'eval/num_trajectories': n };
}
