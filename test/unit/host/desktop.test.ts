import assert from 'node:assert/strict';
import path from 'node:path';
import {
  desktopLaunch,
  browserStartSettings,
  desktopStartArgs,
  executableBehind,
  findDesktopVsCode,
  NO_DESKTOP_VSCODE,
  type Lookup,
} from '../../host/lib/desktop';

/** A machine described by its files, symlinks and PATH entries. */
function machine(
  platform: NodeJS.Platform,
  files: string[],
  links: Record<string, string> = {},
  env: Record<string, string> = {},
  path_: Record<string, string> = {},
): Lookup {
  return {
    env,
    platform,
    which: (command) => path_[command],
    exists: (file) => files.includes(file) || file in links,
    realpath: (file) => links[file] ?? file,
  };
}

describe('desktop VS Code launcher', () => {
  it('resolves `code` on PATH through its symlink to the Electron app beside the script (Debian package layout)', () => {
    const lookup = machine(
      'linux',
      ['/usr/share/code/bin/code', '/usr/share/code/code'],
      { '/usr/bin/code': '/usr/share/code/bin/code' },
      {},
      { code: '/usr/bin/code' },
    );
    assert.deepEqual(findDesktopVsCode(lookup), { executable: '/usr/share/code/code', from: 'code on PATH (/usr/bin/code)' });
  });

  it('finds VSCodium, macOS and Windows executables behind their scripts', () => {
    assert.equal(
      executableBehind(
        '/usr/bin/codium',
        machine('linux', ['/usr/share/codium/bin/codium', '/usr/share/codium/codium'], {
          '/usr/bin/codium': '/usr/share/codium/bin/codium',
        }),
      ),
      '/usr/share/codium/codium',
    );
    const app = '/Applications/Visual Studio Code.app/Contents';
    assert.equal(
      executableBehind(`${app}/Resources/app/bin/code`, machine('darwin', [`${app}/Resources/app/bin/code`, `${app}/MacOS/Electron`])),
      `${app}/MacOS/Electron`,
    );
    const win = path.resolve('/Code/bin/code.cmd');
    assert.equal(executableBehind(win, machine('win32', [win, path.resolve('/Code/Code.exe')])), path.resolve('/Code/Code.exe'));
  });

  it('prefers MTRL_VSCODE_PATH, taken as the executable itself when it is not a script in a bin folder', () => {
    const lookup = machine(
      'linux',
      ['/opt/VSCode-linux-x64/code', '/usr/share/code/code', '/usr/share/code/bin/code'],
      {},
      { MTRL_VSCODE_PATH: '/opt/VSCode-linux-x64/code' },
      { code: '/usr/share/code/bin/code' },
    );
    assert.deepEqual(findDesktopVsCode(lookup), { executable: '/opt/VSCode-linux-x64/code', from: 'MTRL_VSCODE_PATH' });
  });

  it('says what to install when nothing is found, and names a MTRL_VSCODE_PATH that does not exist', () => {
    assert.deepEqual(findDesktopVsCode(machine('linux', [])), { missing: NO_DESKTOP_VSCODE });
    assert.match(
      (findDesktopVsCode(machine('linux', [], {}, { MTRL_VSCODE_PATH: '/nope/code' })) as { missing: string }).missing,
      /MTRL_VSCODE_PATH is \/nope\/code, which does not exist/,
    );
    assert.doesNotMatch(NO_DESKTOP_VSCODE, /\n/);
  });

  it('refuses a `code` on PATH with no desktop app beside it (a code-server or web build shim)', () => {
    const lookup = machine(
      'linux',
      ['/srv/code-server/lib/vscode/bin/code'],
      { '/usr/local/bin/code': '/srv/code-server/lib/vscode/bin/code' },
      {},
      { code: '/usr/local/bin/code' },
    );
    assert.match((findDesktopVsCode(lookup) as { missing: string }).missing, /is not a desktop VS Code: no desktop VS Code: install/);
  });

  const phase = {
    executable: '/usr/share/code/code',
    workspace: '/run/trusted/ws',
    userDataDir: '/run/trusted/user-data',
    extensionsDir: '/run/extensions',
    runnerDir: '/run/development/runner',
    env: { MTRL_HOST_CONFIG: '/run/trusted/config.json' },
  };

  it('launches the trusted phase through runTests: the given executable, the copied workspace, its own user data and extensions, the runner as development extension', () => {
    const launch = desktopLaunch({ ...phase, phase: 'trusted' });
    assert.equal(launch.via, 'runTests');
    if (launch.via !== 'runTests') return;
    const { options } = launch;
    assert.equal(options.vscodeExecutablePath, '/usr/share/code/code');
    assert.equal(options.extensionDevelopmentPath, '/run/development/runner');
    assert.equal(options.extensionTestsPath, path.join('/run/development/runner', 'desktop.js'));
    assert.deepEqual(options.extensionTestsEnv, { MTRL_HOST_CONFIG: '/run/trusted/config.json' });
    assert.equal(options.launchArgs?.[0], '/run/trusted/ws');
    assert.ok(options.launchArgs?.includes('--user-data-dir=/run/trusted/user-data'));
    assert.ok(options.launchArgs?.includes('--extensions-dir=/run/extensions'));
  });

  it('starts the untrusted phase itself, without the --disable-workspace-trust that runTests always adds', () => {
    const launch = desktopLaunch({ ...phase, phase: 'untrusted', workspace: '/run/untrusted/ws' });
    assert.equal(launch.via, 'spawn');
    if (launch.via !== 'spawn') return;
    assert.equal(launch.command, '/usr/share/code/code');
    assert.equal(launch.args[0], '/run/untrusted/ws');
    assert.ok(!launch.args.includes('--disable-workspace-trust'));
    for (const arg of [
      '--extensions-dir=/run/extensions',
      '--no-sandbox',
      `--extensionTestsPath=${path.join('/run/development/runner', 'desktop.js')}`,
      '--extensionDevelopmentPath=/run/development/runner',
    ]) {
      assert.ok(launch.args.includes(arg), arg);
    }
    assert.deepEqual(launch.env, { MTRL_HOST_CONFIG: '/run/trusted/config.json' });
  });

  it('starts the source tree as development extension on the demo workspace, in a profile of its own, trusted', () => {
    const args = desktopStartArgs({ root: '/repo', workspace: '/tmp/demo', userDataDir: '/tmp/start/user-data', trusted: true });
    assert.deepEqual([args[0], args.at(-1)], ['--extensionDevelopmentPath=/repo', '/tmp/demo']);
    assert.ok(args.includes('--user-data-dir=/tmp/start/user-data'));
    assert.ok(args.includes('--disable-workspace-trust'));
  });

  it('opens a user’s own folder with workspace trust on, so VS Code asks before its code runs', () => {
    const args = desktopStartArgs({ root: '/repo', workspace: '/home/me/agent', userDataDir: '/tmp/start/user-data', trusted: false });
    assert.equal(args.at(-1), '/home/me/agent');
    assert.ok(!args.includes('--disable-workspace-trust'), args.join(' '));
  });

  it('in the browser VS Code too: trust is off only for the demo copy', () => {
    assert.equal(browserStartSettings({ trusted: true })['security.workspace.trust.enabled'], false);
    assert.equal(browserStartSettings({ trusted: false })['security.workspace.trust.enabled'], true);
  });
});
