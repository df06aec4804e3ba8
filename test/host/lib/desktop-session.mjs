// One phase of the desktop run: the same suites and runner as the browser harness, launched by @vscode/test-electron.
import { copyFileSync, cpSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { tsImport } from 'tsx/esm/api';
import { startProcess } from './processes.mjs';
import { preparePhase } from './run-session.mjs';
import { collectHostLogs } from './session.mjs';

const { desktopLaunch } = await tsImport('./desktop.ts', import.meta.url);
const { parseReport, sessionResults } = await tsImport('./report.ts', import.meta.url);

/** Resolves when VS Code exits, rejects when it exits with an error code. */
function exited(child) {
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`exit code ${code ?? signal}`))));
  });
}

export async function runDesktopSession(options) {
  const { artifacts, executable, runnerDir, extensionsDir, timeoutMs, bundles, phase, log } = options;
  const { userDataDir, workspace, keptCopies, reportPath, env } = preparePhase({ ...options, deadline: Date.now() + timeoutMs });
  log(`${phase}: desktop VS Code ${executable}, ${bundles.length} suite file(s)`);
  const launch = desktopLaunch({ executable, phase, workspace, userDataDir, extensionsDir, runnerDir, env });
  try {
    // With vscodeExecutablePath given, runTests starts that VS Code and never downloads one.
    if (launch.via === 'runTests') await runTests(launch.options);
    else await exited(startProcess(launch.command, launch.args, { env: { ...process.env, ...launch.env }, stdio: 'inherit' }));
  } catch (error) {
    log(`${phase}: VS Code ended with ${error?.message ?? error}`);
  } finally {
    collectHostLogs([userDataDir], path.join(artifacts, `${phase}-logs`));
    if (existsSync(keptCopies)) cpSync(keptCopies, path.join(artifacts, `${phase}-failed-copies`), { recursive: true });
  }
  if (existsSync(reportPath)) copyFileSync(reportPath, path.join(artifacts, `${phase}-report.json`));
  const text = existsSync(reportPath) ? readFileSync(reportPath, 'utf8') : undefined;
  return sessionResults(`desktop ${phase}`, text ? parseReport(text) : undefined, timeoutMs);
}
