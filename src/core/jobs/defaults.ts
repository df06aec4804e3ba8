/**
 * Recipe defaults of the hyperparameters (reference §5), only to tell which of a job's values differ.
 * Kept minimal here until the launch area's hyperparameter table can be shared.
 */
const RECIPE_DEFAULTS: Record<string, string> = {
  global_batch_size: '128',
  group_size: '8',
  advantage_method: 'group_based',
  loss_fn: 'ppo',
  clip_low_threshold: '0.8',
  clip_high_threshold: '1.2',
  temperature: '1',
  sampling_top_p: '1',
  sampling_max_tokens: '4096',
  pass_k_values: '[1,2,4,8,16,32]',
  success_threshold: '1',
  max_epochs: '1',
  max_steps: '50',
  val_every: '10',
  lora_rank: '32',
  lora_alpha: '64',
  learning_rate: '4e-5',
  rollout_timeout: '600',
};

const MODEL_DEFAULTS: Record<string, Record<string, string>> = {
  'openai-reasoning-gpt-oss-20b': { max_steps: '100', learning_rate: '1e-5' },
};

function sameValue(a: string, b: string): boolean {
  const compact = (v: string) => v.replace(/\s+/g, '');
  if (compact(a) === compact(b)) return true;
  const x = Number(a);
  const y = Number(b);
  return a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y) && x === y;
}

/** The job's hyperparameters whose values differ from the model's defaults (unknown names always count as different). */
export function hyperparametersThatDiffer(values: Record<string, string> | undefined, modelId?: string): Array<[string, string]> {
  const defaults = { ...RECIPE_DEFAULTS, ...(modelId ? MODEL_DEFAULTS[modelId] : undefined) };
  return Object.entries(values ?? {})
    .filter(([name, value]) => defaults[name] === undefined || !sameValue(String(value), defaults[name]))
    .map(([name, value]) => [name, String(value)]);
}
