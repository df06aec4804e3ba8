// The local MTRL service, started from the packaged CLI when it has the `emulator` command.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { startProcess, waitForOutput } from './processes.mjs';
import { ceiling } from './wait.mjs';

export function hasEmulator(cli) {
  try {
    return /\bemulator\b/.test(execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (error) {
    return /\bemulator\b/.test(`${error.stdout ?? ''}`);
  }
}

/**
 * Starts `mtrl emulator --port 0 --seed 1` (speed from MTRL_EMULATOR_SPEED) and resolves with its URL. `runningSpeed`
 * paces the seeded in-progress job on its own (the host run's checks need it running however long the run takes).
 */
export async function startEmulator(cli, { seed = '1', logStream, runningSpeed } = {}) {
  const args = [cli, 'emulator', '--port', '0', '--seed', seed];
  if (runningSpeed) args.push('--running-speed', String(runningSpeed));
  if (process.env.MTRL_EMULATOR_SPEED) args.push('--speed', process.env.MTRL_EMULATOR_SPEED);
  const child = startProcess(process.execPath, args, { cwd: path.dirname(cli), stdio: ['ignore', 'pipe', 'pipe'] });
  if (logStream) {
    child.stdout.pipe(logStream);
    child.stderr.pipe(logStream);
  }
  const match = await waitForOutput(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/, {
    timeoutMs: ceiling(30_000),
    what: 'The emulator',
  });
  return { child, url: match[1] };
}

/** What the extension host needs to reach the emulator with the real SDK. */
export function emulatorEnvironment(url) {
  return { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1', MTRL_EMULATOR_URL: url };
}
