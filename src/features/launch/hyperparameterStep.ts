import * as vscode from 'vscode';
import { defaultHyperparameters, hyperparameterProblem, hyperparameterSpecs, rangeText, sameValue } from '../../core/jobs/hyperparameters';
import type { HyperparameterPreset } from '../../core/jobs/presets';
import type { JobCategory } from '../../core/jobs/status';
import { BACK, CANCEL, inputStep, pickStep, subStep, type StepPosition } from './wizardInput';

type Item = vscode.QuickPickItem & { name?: string; preset?: HyperparameterPreset; done?: boolean };

/** Hyperparameters as a list to edit: every name with its value, default and range, presets on top; "Continue" ends the step. */
export async function hyperparameterStep(
  category: JobCategory,
  values: Record<string, string>,
  presets: readonly HyperparameterPreset[],
  p: StepPosition,
  modelId?: string,
): Promise<'next' | typeof BACK | typeof CANCEL> {
  const defaults = defaultHyperparameters(category, modelId);
  let lastEdited: string | undefined;
  for (;;) {
    const items: Item[] = [
      { label: '$(check) Continue with these values', done: true, detail: changedSummary(values, defaults) },
      { label: 'Presets', kind: vscode.QuickPickItemKind.Separator },
      ...presets.map((preset) => ({ label: `$(symbol-event) ${preset.label}`, detail: preset.detail, preset })),
      { label: 'Hyperparameters (default and range shown)', kind: vscode.QuickPickItemKind.Separator },
      ...hyperparameterSpecs(category).map((spec) => {
        const value = values[spec.name] ?? defaults[spec.name];
        const isDefault = sameValue(value, defaults[spec.name]);
        return {
          label: `${isDefault ? '$(circle-outline)' : '$(circle-filled)'} ${spec.name}`,
          // A value left at the default is not written: the service applies its own.
          description: `= ${value}${values[spec.name] === undefined ? ' (service default, not written)' : isDefault ? ' (default)' : ''}`,
          detail: `${spec.summary}; default ${defaults[spec.name]}, ${rangeText(spec)}`,
          name: spec.name,
        };
      }),
    ];
    const r = await pickStep<Item>({
      ...p,
      placeholder: 'Choose a value to change, a preset, or Continue',
      items,
      active: (i) => (lastEdited ? i.name === lastEdited : !!i.done),
    });
    if (r === BACK || r === CANCEL) return r;
    if (r.done) return 'next';
    if (r.preset) {
      Object.assign(values, r.preset.values);
      continue;
    }
    const spec = hyperparameterSpecs(category).find((s) => s.name === r.name)!;
    lastEdited = spec.name;
    const typed = await inputStep({
      ...subStep(p, spec.name),
      prompt: `${spec.name}: ${spec.summary} (default ${defaults[spec.name]}, ${rangeText(spec)}); empty leaves it to the service's default`,
      value: values[spec.name] ?? defaults[spec.name],
      validate: (v) => (v.trim() === '' ? undefined : hyperparameterProblem(spec, v)),
    });
    if (typed === CANCEL) return CANCEL;
    if (typed === BACK) continue;
    if (typed === '') delete values[spec.name];
    else values[spec.name] = typed;
  }
}

function changedSummary(values: Record<string, string>, defaults: Record<string, string>): string {
  const changed = Object.entries(values).filter(([k, v]) => defaults[k] === undefined || !sameValue(v, defaults[k]));
  return changed.length ? changed.map(([k, v]) => `${k}=${v}`).join(', ') : 'all defaults';
}
