import * as vscode from 'vscode';

/** The user pressed Back: the wizard returns to the previous step. */
export const BACK = Symbol('back');
/** The user pressed Escape or closed the input: the wizard ends, nothing is created. */
export const CANCEL = Symbol('cancel');
export type StepOutcome<T> = T | typeof BACK | typeof CANCEL;

export interface StepPosition {
  title: string;
  step: number;
  totalSteps: number;
}

/** A sub-step (a typed value, a folder of S3, one hyperparameter) keeps its step's number and says what it asks: "Title: runtime ARN (3/11)". */
export function subStep(p: StepPosition, what: string): StepPosition {
  return { ...p, title: `${p.title}: ${what}` };
}

/** The same title for inputs shown by an API without a step counter (showInputBox, showQuickPick): "Title: budget (11/11)". */
export function numberedTitle(p: StepPosition, what: string): string {
  return `${subStep(p, what).title} (${p.step}/${p.totalSteps})`;
}

interface PickOptions<T extends vscode.QuickPickItem> extends StepPosition {
  items: readonly T[] | (() => Promise<readonly T[]>);
  placeholder: string;
  /** The item to highlight first (the last answer). */
  active?: (item: T) => boolean;
  matchOnDetail?: boolean;
}

/** One quick pick step with a Back button (from step 2); items may load while the picker shows a busy bar. */
export async function pickStep<T extends vscode.QuickPickItem>(options: PickOptions<T>): Promise<StepOutcome<T>> {
  const pick = vscode.window.createQuickPick<T>();
  pick.title = options.title;
  pick.step = options.step;
  pick.totalSteps = options.totalSteps;
  pick.placeholder = options.placeholder;
  pick.matchOnDescription = true;
  pick.matchOnDetail = options.matchOnDetail ?? true;
  pick.ignoreFocusOut = true;
  pick.buttons = options.step > 1 ? [vscode.QuickInputButtons.Back] : [];
  const disposables: vscode.Disposable[] = [pick];
  try {
    return await new Promise<StepOutcome<T>>((resolve) => {
      disposables.push(
        pick.onDidTriggerButton((b) => b === vscode.QuickInputButtons.Back && resolve(BACK)),
        pick.onDidAccept(() => {
          const chosen = pick.selectedItems[0];
          if (chosen) resolve(chosen);
        }),
        pick.onDidHide(() => resolve(CANCEL)),
      );
      pick.show();
      const load = async () => {
        pick.busy = true;
        try {
          const items = typeof options.items === 'function' ? await options.items() : options.items;
          pick.items = items;
          const active = options.active ? items.find(options.active) : undefined;
          if (active) pick.activeItems = [active];
        } catch (error) {
          pick.items = [];
          pick.placeholder = `Could not load the list: ${error instanceof Error ? error.message : String(error)}`;
        } finally {
          pick.busy = false;
        }
      };
      void load();
    });
  } finally {
    for (const d of disposables) d.dispose();
  }
}

interface InputOptions extends StepPosition {
  prompt: string;
  value?: string;
  placeholder?: string;
  /** A sentence when the value is wrong, else undefined; may be async (e.g. a name already taken). */
  validate?: (value: string) => string | undefined | Promise<string | undefined>;
}

/** One input box step with a Back button; Enter is refused while the value is invalid. */
export async function inputStep(options: InputOptions): Promise<StepOutcome<string>> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.step = options.step;
  box.totalSteps = options.totalSteps;
  box.prompt = options.prompt;
  box.value = options.value ?? '';
  box.placeholder = options.placeholder;
  box.ignoreFocusOut = true;
  box.buttons = options.step > 1 ? [vscode.QuickInputButtons.Back] : [];
  const disposables: vscode.Disposable[] = [box];
  let checked = 0;
  const check = async (value: string): Promise<string | undefined> => {
    const run = ++checked;
    const message = await options.validate?.(value);
    // A slower answer for an older value must not overwrite the current one.
    if (run === checked) box.validationMessage = message;
    return message;
  };
  try {
    return await new Promise<StepOutcome<string>>((resolve) => {
      disposables.push(
        box.onDidTriggerButton((b) => b === vscode.QuickInputButtons.Back && resolve(BACK)),
        box.onDidChangeValue((v) => void check(v)),
        box.onDidAccept(async () => {
          box.busy = true;
          box.enabled = false;
          const message = await check(box.value);
          box.busy = false;
          box.enabled = true;
          if (!message) resolve(box.value.trim());
        }),
        box.onDidHide(() => resolve(CANCEL)),
      );
      box.show();
      if (box.value) void check(box.value);
    });
  } finally {
    for (const d of disposables) d.dispose();
  }
}

/** A wizard step: reads and updates the answers, and says where to go. */
export type Step<S> = (state: S, position: StepPosition) => Promise<'next' | typeof BACK | typeof CANCEL>;

/** Runs steps in order; Back goes one step back, Escape ends with undefined. */
export async function runWizard<S>(title: string, state: S, steps: readonly Step<S>[]): Promise<S | undefined> {
  let i = 0;
  while (i < steps.length) {
    const outcome = await steps[i](state, { title, step: i + 1, totalSteps: steps.length });
    if (outcome === CANCEL) return undefined;
    i = outcome === BACK ? Math.max(0, i - 1) : i + 1;
  }
  return state;
}
