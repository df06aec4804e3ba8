// The extensionTestsPath of the desktop launcher (@vscode/test-electron): the runner extension itself runs the suites
// (as in the browser harness); this only keeps the window open until its report says done, then lets VS Code exit.
import { existsSync, readFileSync } from 'node:fs';
import type { HostReport, HostRunConfig } from './protocol';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function finished(reportPath: string): boolean {
  if (!existsSync(reportPath)) return false;
  try {
    return (JSON.parse(readFileSync(reportPath, 'utf8')) as HostReport).done;
  } catch {
    return false; // Being rewritten: read again on the next poll.
  }
}

export async function run(): Promise<void> {
  const configPath = process.env.MTRL_HOST_CONFIG;
  if (!configPath) throw new Error('MTRL_HOST_CONFIG is not set: start the desktop run with `npm run test:desktop`.');
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as HostRunConfig;
  const deadline = config.deadline ?? Date.now() + 600_000;
  // The driver reads the report (and tells a missing or unfinished one): no failure is decided here.
  while (!finished(config.reportPath) && Date.now() < deadline) await sleep(300);
}
