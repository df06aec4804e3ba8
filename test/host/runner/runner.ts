// Test-only extension installed next to the product: runs the bundled mocha host suites in the real extension host.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type * as vscode from 'vscode';
import { serveHostCommands } from './commands';
import type { HostReport, HostRunConfig, HostTestResult } from './protocol';

type MochaModule = typeof import('mocha');

/** What host suites can read through `getExtension('mtrl-test.mtrl-host-runner').exports`. */
export interface RunnerApi {
  /** This extension host's log folder (`…/exthost1`): extensions' log output channels write below it. */
  extensionHostLogDir: string;
  /** The config of this run, as the driver wrote it. */
  config: HostRunConfig | undefined;
  /** Wall time of this trivial extension's own activate(): a baseline for the product's. */
  activationMs: number;
  /** Records a figure into the report's `measurements` (read by benchmarks). */
  record(name: string, value: number): void;
}

const measurements: Record<string, number> = {};

function writeReport(path: string, report: HostReport): void {
  writeFileSync(`${path}.tmp`, JSON.stringify(report, null, 2));
  renameSync(`${path}.tmp`, path);
}

function errorOf(error: unknown): HostTestResult['error'] {
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  return { message: String(error) };
}

async function runSuites(config: HostRunConfig): Promise<void> {
  const startedAt = new Date().toISOString();
  const tests: HostTestResult[] = [];
  const report = (done: boolean, fatal?: string): HostReport => ({ startedAt, done, fatal, tests, measurements });
  try {
    // Mocha comes from the repo's node_modules: bundling it would break its dynamic requires.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a path known only at run time
    const Mocha = require(config.mochaPath) as MochaModule;
    const mocha = new Mocha({ ui: 'bdd', timeout: config.timeoutMs, color: false, grep: config.grep || undefined });
    for (const file of config.files) mocha.addFile(file);
    await mocha.loadFilesAsync();
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on('pass', (test) =>
        tests.push({ title: test.fullTitle(), file: test.file, state: 'passed', durationMs: test.duration ?? 0 }),
      );
      runner.on('fail', (test, error) =>
        tests.push({ title: test.fullTitle(), file: test.file, state: 'failed', durationMs: test.duration ?? 0, error: errorOf(error) }),
      );
      runner.on('pending', (test) => tests.push({ title: test.fullTitle(), file: test.file, state: 'pending', durationMs: 0 }));
      runner.on('test end', () => writeReport(config.reportPath, report(false)));
    });
    writeReport(config.reportPath, report(true));
  } catch (error) {
    writeReport(config.reportPath, report(true, errorOf(error)?.stack ?? String(error)));
  }
}

export function activate(context: vscode.ExtensionContext): RunnerApi {
  const started = performance.now();
  const configPath = process.env.MTRL_HOST_CONFIG;
  const config = configPath ? (JSON.parse(readFileSync(configPath, 'utf8')) as HostRunConfig) : undefined;
  // The exthost log dir is the parent of this extension's own log folder.
  const extensionHostLogDir = context.logUri.fsPath.replace(/[\\/][^\\/]+$/, '');
  // Once per session: a UI check that reloads the window restarts this host, and a second run would close its editors.
  if (config && !existsSync(config.reportPath)) setTimeout(() => void runSuites(config), 0);
  if (config?.commandDir) context.subscriptions.push(serveHostCommands(config.commandDir));
  const record = (name: string, value: number) => void (measurements[name] = value);
  return { extensionHostLogDir, config, activationMs: performance.now() - started, record };
}

export function deactivate(): void {}
