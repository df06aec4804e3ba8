import type { JobCategory } from './status';

/**
 * The one table of documented hyperparameters: names, defaults and ranges as the AWS guide gives them. The pre-flight,
 * the review, the wizards, the job-file hover and the emulator's schema all read it (docs/service-facts.md lists the sources).
 * Training: https://docs.aws.amazon.com/sagemaker/latest/dg/model-customize-mtrl-hyperparams.html
 * Evaluation: https://docs.aws.amazon.com/sagemaker/latest/dg/model-customize-mtrl-evaluation.html
 */

/** How a hyperparameter's string value is read and checked. */
type HyperparameterKind = 'integer' | 'number' | 'choice' | 'list';

interface HyperparameterSpec {
  name: string;
  kind: HyperparameterKind;
  /** The service's documented default, as its string form: what applies when the document leaves the name out. */
  default: string;
  summary: string;
  min?: number;
  max?: number;
  /** True when the minimum itself is not allowed, e.g. learning_rate (0, 1e-2]. */
  minExclusive?: boolean;
  /** Allowed values for `choice` (and for integers restricted to a set, e.g. global_batch_size). */
  allowed?: readonly string[];
}

const BATCH: HyperparameterSpec = {
  name: 'global_batch_size',
  kind: 'integer',
  default: '128',
  allowed: ['32', '64', '128'],
  summary: 'tasks (dataset rows) per training step',
};
const GROUP: HyperparameterSpec = {
  name: 'group_size',
  kind: 'integer',
  default: '8',
  min: 2,
  max: 32,
  summary: 'rollouts per task; GRPO compares their rewards',
};
const TEMPERATURE: HyperparameterSpec = {
  name: 'temperature',
  kind: 'number',
  default: '1.0',
  min: 0,
  max: 2,
  summary: 'sampling temperature of the policy; 1.0 for diversity across the rollouts of a group',
};
// The evaluation guide: 0 for evaluation (deterministic, comparable across runs).
const EVALUATION_TEMPERATURE: HyperparameterSpec = { ...TEMPERATURE, default: '0', summary: 'sampling temperature; 0 is deterministic' };
const TOP_P: HyperparameterSpec = {
  name: 'sampling_top_p',
  kind: 'number',
  default: '1.0',
  min: 0,
  max: 1,
  summary: 'nucleus sampling top-p',
};
const MAX_TOKENS: HyperparameterSpec = {
  name: 'sampling_max_tokens',
  kind: 'integer',
  default: '4096',
  min: 512,
  max: 8192,
  summary: 'tokens the model may generate per turn (8192 is the service maximum)',
};
const SUCCESS: HyperparameterSpec = {
  name: 'success_threshold',
  kind: 'number',
  default: '1',
  summary: 'reward at or above which a rollout counts as solved (pass@k)',
};
const TIMEOUT: HyperparameterSpec = {
  name: 'rollout_timeout',
  kind: 'integer',
  default: '600',
  min: 300,
  max: 86400,
  summary: 'seconds one rollout may take',
};
const CONCURRENCY: HyperparameterSpec = {
  name: 'rollout_max_concurrency',
  kind: 'integer',
  default: '96',
  min: 32,
  max: 96,
  summary: 'rollouts run at once',
};
const RETRIES: HyperparameterSpec = {
  name: 'rollout_max_retries',
  kind: 'integer',
  default: '3',
  min: 1,
  max: 10,
  summary: 'retries of a failed rollout',
};
const PASS_K: HyperparameterSpec = {
  name: 'pass_k_values',
  kind: 'list',
  default: '[1,2,4,8,16,32]',
  summary: 'k values of the pass@k metrics',
};

/** Training hyperparameters with the recipe defaults and ranges. */
export const TRAINING_HYPERPARAMETERS: readonly HyperparameterSpec[] = [
  BATCH,
  GROUP,
  { name: 'max_epochs', kind: 'integer', default: '1', min: 1, max: 30, summary: 'passes over the training set' },
  {
    name: 'max_steps',
    kind: 'integer',
    default: '50',
    min: 1,
    max: 1000,
    summary: 'training steps; the first of max_steps / max_epochs stops the job',
  },
  {
    name: 'learning_rate',
    kind: 'number',
    default: '4e-5',
    min: 0,
    max: 1e-2,
    minExclusive: true,
    summary: 'adapter learning rate; high values make the model write tool calls as text',
  },
  MAX_TOKENS,
  TEMPERATURE,
  TOP_P,
  { name: 'val_every', kind: 'integer', default: '10', min: 0, max: 100, summary: 'steps between validation runs (0: never)' },
  { name: 'lora_rank', kind: 'integer', default: '32', min: 16, max: 64, summary: 'LoRA rank' },
  { name: 'lora_alpha', kind: 'integer', default: '64', min: 16, max: 128, summary: 'LoRA alpha' },
  {
    name: 'advantage_method',
    kind: 'choice',
    default: 'group_based',
    allowed: [
      'monte_carlo',
      'group_based',
      'group_based_per_turn',
      'rloo',
      'reinforce_pp',
      'reinforce_pp_baseline',
      'opo',
      'grpo_passk',
      'gpg',
    ],
    summary: 'how rewards become advantages',
  },
  { name: 'loss_fn', kind: 'choice', default: 'ppo', allowed: ['importance_sampling', 'ppo', 'cispo'], summary: 'policy loss' },
  { name: 'clip_low_threshold', kind: 'number', default: '0.8', min: 0, max: 1, summary: 'lower ratio clip' },
  { name: 'clip_high_threshold', kind: 'number', default: '1.2', min: 1, max: 10, summary: 'upper ratio clip' },
  PASS_K,
  SUCCESS,
  TIMEOUT,
  CONCURRENCY,
  RETRIES,
  {
    name: 'max_steps_off_policy',
    kind: 'integer',
    default: '3',
    min: 0,
    max: 10,
    summary: 'steps a rollout may lag the policy; the guide: 0 when debugging collapse',
  },
  // The guide gives adam_beta1 [0, 0.999999] and adam_grad_clip_norm [0, 100]; for the others it gives no range, so only the sign is checked.
  { name: 'adam_beta1', kind: 'number', default: '0.9', min: 0, max: 0.999999, summary: 'Adam first-moment decay' },
  { name: 'adam_beta2', kind: 'number', default: '0.95', min: 0, max: 0.999999, summary: 'Adam second-moment decay' },
  { name: 'adam_eps', kind: 'number', default: '1e-8', min: 0, minExclusive: true, summary: 'Adam epsilon' },
  { name: 'adam_weight_decay', kind: 'number', default: '0', min: 0, summary: 'Adam weight decay' },
  { name: 'adam_grad_clip_norm', kind: 'number', default: '1', min: 0, max: 100, summary: 'gradient norm clip' },
];

/** Evaluation hyperparameters: the FLAT names the service accepts; a name left out takes the service's default (never written by us). */
export const EVALUATION_HYPERPARAMETERS: readonly HyperparameterSpec[] = [
  { name: 'eval_group_size', kind: 'integer', default: '1', min: 1, max: 32, summary: 'rollouts per evaluation task' },
  EVALUATION_TEMPERATURE,
  TOP_P,
  MAX_TOKENS,
  { ...PASS_K, summary: 'k values of the pass@k metrics (each ≤ eval_group_size)' },
  SUCCESS,
  TIMEOUT,
  CONCURRENCY,
  RETRIES,
];

/** Names the SDK's evaluator writes, with the flat name to write instead: the one real run shows them dropped; a refusal is the emulator's guess. */
export const SDK_EVALUATOR_NAMES: Readonly<Record<string, string>> = {
  sampling_temperature: 'temperature',
  top_p: 'sampling_top_p',
  max_tokens: 'sampling_max_tokens',
};

/** Per-model defaults that differ from the recipe's (hub defaults). */
const MODEL_DEFAULTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'openai-reasoning-gpt-oss-20b': { max_steps: '100', learning_rate: '1e-5' },
};

export function hyperparameterSpecs(category: JobCategory): readonly HyperparameterSpec[] {
  return category === 'AgentRFT' ? TRAINING_HYPERPARAMETERS : EVALUATION_HYPERPARAMETERS;
}

/** The defaults for a model: the recipe's, then the model's own. */
export function defaultHyperparameters(category: JobCategory, modelId?: string): Record<string, string> {
  const defaults = Object.fromEntries(hyperparameterSpecs(category).map((s) => [s.name, s.default]));
  return category === 'AgentRFT' && modelId ? { ...defaults, ...MODEL_DEFAULTS[modelId] } : defaults;
}

/** Where a setting's effective value comes from, in the review's words. */
export type SettingSource = 'your file' | 'service default' | 'SDK default';

/** A setting as the job will run it: the value and where it comes from. */
export interface EffectiveSetting {
  name: string;
  value: string;
  source: SettingSource;
}

/** Every documented hyperparameter with the value the job runs with: the written one, else the service's default. Unknown written names come last. */
export function effectiveHyperparameters(category: JobCategory, written: Record<string, string>, modelId?: string): EffectiveSetting[] {
  const defaults = defaultHyperparameters(category, modelId);
  const specs = hyperparameterSpecs(category);
  const known = specs.map(({ name }): EffectiveSetting =>
    written[name] !== undefined
      ? { name, value: written[name], source: 'your file' }
      : { name, value: defaults[name], source: 'service default' },
  );
  const names = new Set(specs.map((s) => s.name));
  const unknown = Object.entries(written)
    .filter(([name]) => !names.has(name))
    .map(([name, value]): EffectiveSetting => ({ name, value, source: 'your file' }));
  return [...known, ...unknown];
}

/** "1", "1.0" and "1e0" are the same value: compare numbers as numbers, lists without spaces. */
export function sameValue(a: string, b: string): boolean {
  const na = Number(a);
  const nb = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && !Number.isNaN(na) && !Number.isNaN(nb)) return na === nb;
  return a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
}

/** Only the values that differ from the model's defaults: what the SDK sends for training. */
export function nonDefaultHyperparameters(values: Record<string, string>, modelId?: string): Record<string, string> {
  const defaults = defaultHyperparameters('AgentRFT', modelId);
  return Object.fromEntries(
    Object.entries(values).filter(([name, value]) => defaults[name] === undefined || !sameValue(value, defaults[name])),
  );
}

/** A value that breaks the spec, as a sentence; undefined when the value is fine. */
export function hyperparameterProblem(spec: HyperparameterSpec, value: string): string | undefined {
  const text = value.trim();
  if (spec.kind === 'choice') {
    return spec.allowed?.includes(text) ? undefined : `${spec.name} must be one of ${spec.allowed?.join(', ')}; got "${value}".`;
  }
  if (spec.kind === 'list') {
    try {
      const list: unknown = JSON.parse(text);
      if (Array.isArray(list) && list.length > 0 && list.every((k) => Number.isInteger(k) && (k as number) > 0)) return undefined;
    } catch {
      // Falls through to the sentence below.
    }
    return `${spec.name} must be a JSON list of positive whole numbers such as [1,2,4]; got "${value}".`;
  }
  const n = Number(text);
  if (text === '' || Number.isNaN(n)) return `${spec.name} must be a number; got "${value}".`;
  if (spec.kind === 'integer' && !Number.isInteger(n)) return `${spec.name} must be a whole number; got "${value}".`;
  if (spec.allowed && !spec.allowed.some((a) => Number(a) === n))
    return `${spec.name} must be one of ${spec.allowed.join(', ')}; got ${value}.`;
  const below = spec.min !== undefined && (spec.minExclusive ? n <= spec.min : n < spec.min);
  const above = spec.max !== undefined && n > spec.max;
  if (below || above) return `${spec.name} must be in ${rangeText(spec)}; got ${value}.`;
  return undefined;
}

/** "[512, 8192]", "(0, 0.01]", "one of 32, 64, 128": the range as the table shows it. */
export function rangeText(spec: HyperparameterSpec): string {
  if (spec.allowed) return `one of ${spec.allowed.join(', ')}`;
  if (spec.min === undefined && spec.max === undefined) return 'any';
  return `${spec.minExclusive ? '(' : '['}${spec.min ?? '−∞'}, ${spec.max ?? '∞'}]`;
}
