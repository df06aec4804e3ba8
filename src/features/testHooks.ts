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

/** What the host suites read of the features: what a page reported drawing, what a job's row says of its health. */
export interface TestProbes {
  signalView(): unknown;
  metricsView(): unknown;
  replayView(): unknown;
  jobHealth(ref: { jobName: string; category: 'AgentRFT' | 'AgentRFTEvaluation'; region: string }): Promise<unknown>;
}

/** The commands the host suites run to read each probe: named here only, so the shipped features register none of them. */
const PROBE_COMMANDS: Record<keyof TestProbes, string> = {
  signalView: 'mtrl.getSignalView',
  metricsView: 'mtrl.getMetricsView',
  replayView: 'mtrl.getReplayView',
  jobHealth: 'mtrl.getJobHealth',
};

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

/** Registers the reset and the probes only under the harness: package.json contributes none of them, so no user can run them. */
export function registerTestHooks(parts: ResetForTests[], probes: TestProbes, env: NodeJS.ProcessEnv = process.env): vscode.Disposable[] {
  if (env[TEST_HOOKS_VARIABLE] !== '1') return [];
  return [
    ...(Object.keys(PROBE_COMMANDS) as (keyof TestProbes)[]).map((probe) =>
      vscode.commands.registerCommand(PROBE_COMMANDS[probe], (...args: unknown[]) =>
        (probes[probe] as (...a: unknown[]) => unknown)(...args),
      ),
    ),
    vscode.commands.registerCommand(RESET_FOR_TESTS_COMMAND, async (options?: ResetOptions) => {
      for (const part of parts) await part.resetForTests(options ?? {});
      return true;
    }),
  ];
}
