import * as vscode from 'vscode';

/** What a UI check asks of the known start: whether the Jobs view keeps polling running jobs (held otherwise). */
export interface ResetOptions {
  polling?: boolean;
  /** Forget every remembered choice (the wizards' last answers, budgets, smoke results…): a new UI check group starts with none. */
  forgetChoices?: boolean;
}

/** A feature's part of the UI checks' known start: its state forgotten and its own timers held. */
export interface ResetForTests {
  resetForTests(options: ResetOptions): Promise<void>;
}

/** The environment variable the host test harness sets on its VS Code server; users never have it. */
export const TEST_HOOKS_VARIABLE = 'MTRL_TEST_HOOKS';
export const RESET_FOR_TESTS_COMMAND = 'mtrl.test.resetState';

/** The reset's part for what the extension keeps between sessions (workspaceState and globalState), on `forgetChoices`. */
export function storedChoices(context: { workspaceState: vscode.Memento; globalState: vscode.Memento }): ResetForTests {
  return {
    async resetForTests({ forgetChoices }) {
      if (!forgetChoices) return;
      for (const state of [context.workspaceState, context.globalState]) for (const key of state.keys()) await state.update(key, undefined);
    },
  };
}

/** Registers the reset command only under the harness: package.json does not contribute it, so no user can run it. */
export function registerTestHooks(parts: ResetForTests[], env: NodeJS.ProcessEnv = process.env): vscode.Disposable[] {
  if (env[TEST_HOOKS_VARIABLE] !== '1') return [];
  return [
    vscode.commands.registerCommand(RESET_FOR_TESTS_COMMAND, async (options?: ResetOptions) => {
      for (const part of parts) await part.resetForTests(options ?? {});
      return true;
    }),
  ];
}
