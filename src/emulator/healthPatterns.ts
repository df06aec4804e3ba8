import type { Job } from './jobModel';

type Values = Record<string, number>;

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** What each seeded way of going wrong does to a step's logged values from the pattern's step on (the rollouts played stay as they were). */
const BEND: Record<string, (v: Values, job: Job, since: number, family: 'training' | 'validation') => void> = {
  // Responses run into the cap: the longest one is cut at sampling_max_tokens, the mean grows toward it.
  truncation: (v, job, _since, family) => {
    const cap = Number(
      (job.document as { TrainingConfig?: { HyperParameters?: Record<string, string> } }).TrainingConfig?.HyperParameters
        ?.sampling_max_tokens,
    );
    const prefix = family === 'training' ? 'rollout' : 'val';
    v[`${prefix}/tokens/response_max`] = cap;
    v[`${prefix}/tokens/response_mean`] = Math.min(cap, v[`${prefix}/tokens/response_mean`] * 1.8);
  },
  // Three groups in four score the same on every rollout: the spread and advantages shrink with them.
  'no-signal': (v, _job, _since, family) => {
    if (family !== 'training') return;
    v['analysis/zero_adv_groups'] = Math.round(v['training/num_groups'] * 0.75);
    v['analysis/mean_group_reward_spread'] *= 0.4;
    v['rollout/advantage/std'] *= 0.5;
  },
  // Every rollout of a task gives the same answer: spread and advantage std fall to a tenth, in a few turns.
  collapse: (v, _job, _since, family) => {
    if (family !== 'training') return;
    v['analysis/mean_group_reward_spread'] *= 0.1;
    v['rollout/advantage/std'] *= 0.1;
    v['rollout/reward/std'] *= 0.1;
  },
  // Training reward keeps climbing while validation falls: the policy found a way to score without solving.
  overfitting: (v, _job, since, family) => {
    if (family === 'training') v['rollout/reward/mean'] += 0.05 * since;
    else {
      v['val/reward/pass_at_1'] = Math.max(0, v['val/reward/pass_at_1'] - 0.25);
      v['val/reward/mean'] -= 0.6;
    }
  },
  // A third of the rollouts fail: the agent errors, so fewer trajectories come back valid.
  'failing-rollouts': (v, _job, _since, family) => {
    if (family !== 'training') return;
    v['analysis/batch_valid_ratio'] = 0.66;
    v['analysis/batch_completion_ratio'] = 0.7;
    v['training/num_trajectories'] = Math.round(v['training/num_trajectories'] * 0.7);
  },
};

/** The step's values as a seeded health job logs them: bent from the pattern's step on, untouched before it. */
export function bentValues(job: Job, family: 'training' | 'validation', step: number, values: Values): Values {
  const pattern = job.pattern;
  const bend = pattern && BEND[pattern.kind];
  if (!bend || step < pattern.step) return values;
  const out = { ...values };
  bend(out, job, step - pattern.step, family);
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, round(v)]));
}
