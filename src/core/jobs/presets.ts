// Named sets of hyperparameter values the launch wizards offer; the names, defaults and ranges are in hyperparameters.ts.

/** A named set of values the wizard offers in one pick. */
export interface HyperparameterPreset {
  label: string;
  detail: string;
  values: Record<string, string>;
}

export const TRAINING_PRESETS: readonly HyperparameterPreset[] = [
  {
    label: 'Reasoning model',
    detail: 'sampling_max_tokens 8192: reasoning models otherwise spend the budget thinking before the first tool call',
    values: { sampling_max_tokens: '8192' },
  },
  {
    label: 'Quick trial',
    detail: 'max_steps 10, val_every 5: see the reward move before paying for a full run',
    values: { max_steps: '10', val_every: '5' },
  },
  {
    label: 'Wordle reference run',
    detail: 'batch 128, group 8, 100 steps, 20 epochs, sampling_max_tokens 8192 (the published gpt-oss-20b run)',
    values: { global_batch_size: '128', group_size: '8', max_steps: '100', max_epochs: '20', sampling_max_tokens: '8192' },
  },
];

export const EVALUATION_PRESETS: readonly HyperparameterPreset[] = [
  {
    label: 'Serving settings',
    detail: 'temperature 1.0, top-p 1.0: evaluate as the model will be used, not at temperature 0',
    values: { temperature: '1.0', sampling_top_p: '1.0' },
  },
  { label: 'Reasoning model', detail: 'sampling_max_tokens 8192', values: { sampling_max_tokens: '8192' } },
  {
    label: 'pass@k up to 8',
    detail: 'eval_group_size 8, pass_k_values [1,2,4,8]',
    values: { eval_group_size: '8', pass_k_values: '[1,2,4,8]' },
  },
];
