// Desktop VS Code under @vscode/test-electron: which executable, and how one phase is launched. It never downloads.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { TestOptions } from '@vscode/test-electron';

/** What to install when no desktop VS Code is found (one line, printed as is). */
export const NO_DESKTOP_VSCODE =
  'no desktop VS Code: install VS Code (or VSCodium) so that `code` is on PATH, or set MTRL_VSCODE_PATH to its executable';

export type DesktopVsCode = { executable: string; from: string } | { missing: string };

export interface Lookup {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  /** The path of a command on PATH, or undefined. */
  which(command: string): string | undefined;
  exists(file: string): boolean;
  realpath(file: string): string;
}

/**
 * The Electron executable behind a `code` command line script: `…/bin/code` sits next to the app on Linux
 * (`…/code`, `…/codium`), inside the bundle on macOS (`Contents/MacOS/Electron`), beside `Code.exe` on Windows.
 * A path that is no script in a `bin` folder is taken as the executable itself.
 */
export function executableBehind(cli: string, lookup: Pick<Lookup, 'platform' | 'exists' | 'realpath'>): string | undefined {
  const real = lookup.realpath(cli);
  const dir = path.dirname(real);
  if (path.basename(dir) !== 'bin') return lookup.exists(real) ? real : undefined;
  const name = path.basename(real).replace(/\.(cmd|sh)$/, '');
  const candidates =
    lookup.platform === 'darwin'
      ? [path.resolve(dir, '../../../MacOS/Electron'), path.resolve(dir, `../../../MacOS/${name}`)]
      : lookup.platform === 'win32'
        ? ['Code.exe', 'Code - Insiders.exe', 'VSCodium.exe'].map((exe) => path.resolve(dir, '..', exe))
        : [path.resolve(dir, '..', name)];
  return candidates.find((file) => lookup.exists(file));
}

/** MTRL_VSCODE_PATH (an executable or a `code` script), else `code` on PATH resolved to its executable. */
export function findDesktopVsCode(lookup: Lookup): DesktopVsCode {
  const given = lookup.env.MTRL_VSCODE_PATH;
  if (given) {
    if (!lookup.exists(given))
      return { missing: `MTRL_VSCODE_PATH is ${given}, which does not exist: point it at a desktop VS Code executable` };
    const executable = executableBehind(given, lookup);
    return executable
      ? { executable, from: 'MTRL_VSCODE_PATH' }
      : { missing: `MTRL_VSCODE_PATH is ${given}, but no VS Code executable is beside it` };
  }
  const cli = lookup.which(lookup.platform === 'win32' ? 'code.cmd' : 'code');
  if (!cli) return { missing: NO_DESKTOP_VSCODE };
  const executable = executableBehind(cli, lookup);
  // code-server and the web build also install a `code` shim: no Electron app beside it.
  return executable
    ? { executable, from: `code on PATH (${cli})` }
    : { missing: `\`code\` on PATH (${cli}) is not a desktop VS Code: ${NO_DESKTOP_VSCODE}` };
}

/** The real machine's lookup. */
export function machineLookup(): Lookup {
  const which = (command: string) =>
    (process.env.PATH ?? '')
      .split(path.delimiter)
      .filter(Boolean)
      .map((dir) => path.join(dir, command))
      .find((file) => existsSync(file));
  return { env: process.env, platform: process.platform, which, exists: existsSync, realpath: realpathSync };
}

export interface DesktopPhase {
  executable: string;
  phase: 'trusted' | 'untrusted';
  /** The copied fixture workspace the window opens. */
  workspace: string;
  userDataDir: string;
  /** Holds the product installed from its .vsix, as in the browser harness. */
  extensionsDir: string;
  /** The test runner extension (test/host/runner), loaded as the development extension. */
  runnerDir: string;
  /** The environment the extension host gets: MTRL_HOST_CONFIG and the emulator's variables. */
  env: Record<string, string>;
}

/** What runTests adds to every launch (its own defaults), less `--disable-workspace-trust`. */
const TEST_ELECTRON_FLAGS = [
  '--no-sandbox',
  '--disable-gpu-sandbox',
  '--disable-updates',
  '--skip-welcome',
  '--skip-release-notes',
  '--no-cached-data',
];

export type DesktopLaunch =
  { via: 'runTests'; options: TestOptions } | { via: 'spawn'; command: string; args: string[]; env: Record<string, string> };

/**
 * How one phase starts: the runner's `desktop.js` waits for the same suites the browser harness runs. The trusted phase
 * goes through runTests, which always adds `--disable-workspace-trust`; the untrusted phase needs trust on, so it starts
 * the same executable with the same arguments minus that flag (user settings turn trust on, as in the browser harness).
 */
export function desktopLaunch(p: DesktopPhase): DesktopLaunch {
  const options = {
    vscodeExecutablePath: p.executable,
    extensionDevelopmentPath: p.runnerDir,
    extensionTestsPath: path.join(p.runnerDir, 'desktop.js'),
    extensionTestsEnv: p.env,
    launchArgs: [
      p.workspace,
      `--user-data-dir=${p.userDataDir}`,
      `--extensions-dir=${p.extensionsDir}`,
      '--new-window',
      '--disable-telemetry',
      '--disable-gpu',
    ],
  };
  if (p.phase === 'trusted') return { via: 'runTests', options };
  const args = [
    ...options.launchArgs,
    ...TEST_ELECTRON_FLAGS,
    `--extensionTestsPath=${options.extensionTestsPath}`,
    `--extensionDevelopmentPath=${options.extensionDevelopmentPath}`,
  ];
  return { via: 'spawn', command: p.executable, args, env: p.env };
}

/** `npm start` on desktop: the source tree as development extension, on a workspace, in its own profile (so the
 * process lives until that window closes) with the user's extensions; only the demo copy is trusted without asking. */
export function desktopStartArgs(p: { root: string; workspace: string; userDataDir: string; trusted: boolean }): string[] {
  return [
    `--extensionDevelopmentPath=${p.root}`,
    `--user-data-dir=${p.userDataDir}`,
    '--new-window',
    '--skip-welcome',
    // Only our own demo copy skips the trust question: a user's folder may hold code that runs on opening.
    ...(p.trusted ? ['--disable-workspace-trust'] : []),
    p.workspace,
  ];
}

/** `npm start` in the browser VS Code: its user settings. Trust as on desktop: only the demo copy skips the question. */
export function browserStartSettings(p: { trusted: boolean }): Record<string, unknown> {
  return {
    'security.workspace.trust.enabled': !p.trusted,
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
  };
}
