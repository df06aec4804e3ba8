// Test-only extension installed next to the product: runs the bundled mocha host suites in the real extension host,
// each suite file on a fresh copy of the fixture folder it owns (see test/host/lib/copies.ts).
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as vscode from 'vscode';
import { ceiling } from '../lib/ceiling';
import { retireCopy } from '../lib/copies';
import { mochaGrep, selects } from '../lib/selection';
import { resetWorkbench, serveHostCommands } from './commands';
import type { HostReport, HostRunConfig, HostTestResult } from './protocol';
import { watchedCopy } from './watchedCopy';

type MochaModule = typeof import('mocha');

/** What host suites can read through `getExtension('mtrl-test.mtrl-host-runner').exports`. */
export interface RunnerApi {
  /** This extension host's log folder (`…/exthost1`): extensions' log output channels write below it. */
  extensionHostLogDir: string;
  /** The config of this run, as the driver wrote it. */
  config: HostRunConfig | undefined;
  /** The running suite file's own copy of the fixture folder (inside the workspace); undefined between suites. */
  readonly suiteFolder: string | undefined;
  /** Wall time of this trivial extension's own activate(): a baseline for the product's. */
  activationMs: number;
  /** Records a figure into the report's `measurements` (read by benchmarks). */
  record(name: string, value: number): void;
  /**
   * The contagion self-test's inner run: `files` (bundled suite files) run as the harness runs suites, each on a fresh
   * copy of its own, or (`shared`) all on one copy as before the harness isolated them. Their results stay out of the
   * report; every copy ends up in `keepIn`, for the self-test to read.
   */
  runInner(files: string[], options: { shared: boolean; keepIn: string }): Promise<InnerRun>;
}

/** What an inner run of suite files gave: each test's result, and where each file's copy was kept. */
export interface InnerRun {
  tests: HostTestResult[];
  kept: Record<string, string>;
}

const measurements: Record<string, number> = {};
let suiteFolder: string | undefined;

function writeReport(path: string, report: HostReport): void {
  writeFileSync(`${path}.tmp`, JSON.stringify(report, null, 2));
  renameSync(`${path}.tmp`, path);
}

function errorOf(error: unknown): HostTestResult['error'] {
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  return { message: String(error) };
}

/** How many tests of the loaded suite the grep (title parts, test/host/lib/selection.ts) lets run. */
function selected(suite: Mocha.Suite, grep: string): number {
  return (
    suite.tests.filter((t) => selects(grep, t.fullTitle())).length + suite.suites.reduce((sum, inner) => sum + selected(inner, grep), 0)
  );
}

/** Runs one loaded mocha instance to its end, recording every result; waits stretch with the machine's load. */
function runMocha(mocha: Mocha, tests: HostTestResult[], onTestEnd: () => void): Promise<number> {
  let failures = 0;
  return new Promise<number>((resolve) => {
    const runner = mocha.run(() => resolve(failures));
    // A test's or hook's timeout is a ceiling for an idle machine: stretched by the load before it starts.
    runner.on('test', (test) => void test.timeout(ceiling(test.timeout())));
    runner.on('hook', (hook) => void hook.timeout(ceiling(hook.timeout())));
    runner.on('pass', (test) => tests.push({ title: test.fullTitle(), file: test.file, state: 'passed', durationMs: test.duration ?? 0 }));
    runner.on('fail', (test, error) => {
      failures++;
      tests.push({ title: test.fullTitle(), file: test.file, state: 'failed', durationMs: test.duration ?? 0, error: errorOf(error) });
    });
    runner.on('pending', (test) => tests.push({ title: test.fullTitle(), file: test.file, state: 'pending', durationMs: 0 }));
    runner.on('test end', onTestEnd);
  });
}

const loadMocha = (config: HostRunConfig): MochaModule =>
  // Mocha comes from the repo's node_modules: bundling it would break its dynamic requires.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a path known only at run time
  require(config.mochaPath) as MochaModule;

/** A suite file's name for its copy: `replayReward.test.js` → `replayReward`. */
const suiteName = (file: string) => path.basename(file).replace(/(\.untrusted)?\.test\.js$/, '');

/**
 * Runs one suite file in a mocha of its own on `folder` (its copy), then closes every editor (dirty ones reverted) so
 * the next suite starts with none open; resolves with the number of failed tests, or undefined when grep selects none.
 */
async function runFile(
  config: HostRunConfig,
  { file, grep }: { file: string; grep: string },
  folder: () => Promise<string>,
  tests: HostTestResult[],
  onTestEnd: () => void,
) {
  const Mocha = loadMocha(config);
  const mocha = new Mocha({ ui: 'bdd', timeout: config.timeoutMs, color: false, grep: mochaGrep(grep) });
  mocha.addFile(file);
  await mocha.loadFilesAsync();
  if (!selected(mocha.suite, grep)) return undefined;
  const previous = suiteFolder;
  suiteFolder = await folder();
  try {
    return await runMocha(mocha, tests, onTestEnd);
  } finally {
    await resetWorkbench();
    suiteFolder = previous;
    mocha.dispose();
  }
}

/**
 * Each suite file runs on a fresh copy of the fixture folder; afterwards the copy leaves the workspace (kept for the
 * artifacts when one of its tests failed), so no later suite can read what it wrote.
 */
async function runSuites(config: HostRunConfig): Promise<void> {
  const startedAt = new Date().toISOString();
  const tests: HostTestResult[] = [];
  const report = (done: boolean, fatal?: string): HostReport => ({ startedAt, done, fatal, tests, measurements });
  // Written first thing, so the driver can tell a window that never started its extensions from a slow first test.
  writeReport(config.reportPath, report(false));
  try {
    for (const file of config.files) {
      let copy: string | undefined;
      const failures = await runFile(
        config,
        { file, grep: config.grep },
        async () => (copy = await watchedCopy(config.fixture, config.workspace, suiteName(file))),
        tests,
        () => writeReport(config.reportPath, report(false)),
      );
      if (copy) retireCopy(copy, failures ? config.keptCopies : undefined);
      // Workspace settings a suite wrote (.vscode/settings.json of the opened folder) end with it too.
      rmSync(path.join(config.workspace, '.vscode'), { recursive: true, force: true });
    }
    writeReport(config.reportPath, report(true));
  } catch (error) {
    writeReport(config.reportPath, report(true, errorOf(error)?.stack ?? String(error)));
  }
}

/** See `RunnerApi.runInner`. */
async function runInner(
  config: HostRunConfig,
  files: string[],
  { shared, keepIn }: { shared: boolean; keepIn: string },
): Promise<InnerRun> {
  const tests: HostTestResult[] = [];
  const kept: Record<string, string> = {};
  const one = shared ? await watchedCopy(config.fixture, config.workspace, 'shared') : undefined;
  for (const file of files) {
    const copy = one ?? (await watchedCopy(config.fixture, config.workspace, suiteName(file)));
    // The outer grep (which selected the self-test) says nothing about the inner suites: all their tests run.
    await runFile(
      config,
      { file, grep: '' },
      async () => copy,
      tests,
      () => undefined,
    );
    if (!one) kept[file] = retireCopy(copy, keepIn) ?? copy;
  }
  if (one) {
    const at = retireCopy(one, keepIn) ?? one;
    for (const file of files) kept[file] = at;
  }
  return { tests, kept };
}

export function activate(context: vscode.ExtensionContext): RunnerApi {
  const started = performance.now();
  const configPath = process.env.MTRL_HOST_CONFIG;
  const config = configPath ? (JSON.parse(readFileSync(configPath, 'utf8')) as HostRunConfig) : undefined;
  // The exthost log dir is the parent of this extension's own log folder.
  const extensionHostLogDir = context.logUri.fsPath.replace(/[\\/][^\\/]+$/, '');
  // Once per session: a UI check that reloads the window restarts this host, and a second run would close its editors.
  if (config && !existsSync(config.reportPath)) setTimeout(() => void runSuites(config), 0);
  if (config?.commandDir) context.subscriptions.push(serveHostCommands(config.commandDir, config));
  const record = (name: string, value: number) => void (measurements[name] = value);
  return {
    extensionHostLogDir,
    config,
    get suiteFolder() {
      return suiteFolder;
    },
    activationMs: performance.now() - started,
    record,
    runInner: (files, options) => {
      if (!config) throw new Error('no run config: the contagion self-test runs only under the host driver');
      return runInner(config, files, options);
    },
  };
}

export function deactivate(): void {}
