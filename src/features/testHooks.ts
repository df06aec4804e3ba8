import * as vscode from 'vscode';

/** A feature's part of the UI checks' known start: its state forgotten and its own timers held. */
export interface ResetForTests {
  resetForTests(): Promise<void>;
}

/** The environment variable the host test harness sets on its VS Code server; users never have it. */
export const TEST_HOOKS_VARIABLE = 'MTRL_TEST_HOOKS';
export const RESET_FOR_TESTS_COMMAND = 'mtrl.test.resetState';

/** Registers the reset command only under the harness: package.json does not contribute it, so no user can run it. */
export function registerTestHooks(parts: ResetForTests[], env: NodeJS.ProcessEnv = process.env): vscode.Disposable[] {
  if (env[TEST_HOOKS_VARIABLE] !== '1') return [];
  return [
    vscode.commands.registerCommand(RESET_FOR_TESTS_COMMAND, async () => {
      for (const part of parts) await part.resetForTests();
      return true;
    }),
  ];
}
