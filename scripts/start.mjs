// `npm start [-- <folder>]`: the extension on a copy of the demo workspace, or on your own folder in place, against the local emulator (or real AWS), until Ctrl-C.
// Desktop VS Code (MTRL_VSCODE_PATH, else `code` on PATH) gets --extensionDevelopmentPath; otherwise the browser VS Code of the host harness.
import { spawnSync } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { emulatorEnvironment, hasEmulator, startEmulator } from '../test/host/lib/emulator.mjs';
import { installVsix, packageExtension } from '../test/host/lib/extensions.mjs';
import { ensureCodeServer, ensureNode, NODE_VERSION, MissingPrerequisite } from '../test/host/lib/install.mjs';
import { cleanUpOnSignals, startProcess, stopAll } from '../test/host/lib/processes.mjs';
import { closeBrowsers, openWorkbench, startServer, writeUserSettings } from '../test/host/lib/session.mjs';

const { browserStartSettings, desktopStartArgs, findDesktopVsCode, machineLookup } = await tsImport(
  '../test/host/lib/desktop.ts',
  import.meta.url,
);

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const log = (message) => console.log(`start: ${message}`);
const runDir = mkdtempSync(path.join(os.tmpdir(), 'mtrl-start-'));

let cleaning;
/** Once, however many callers (Ctrl-C while main's own finally runs): each waits for the same cleanup. */
function cleanup() {
  cleaning ??= cleanUp();
  return cleaning;
}
async function cleanUp() {
  await closeBrowsers();
  await stopAll();
  rmSync(runDir, { recursive: true, force: true });
}
cleanUpOnSignals(async () => {
  log('stopping');
  await cleanup();
});

/** Settings JSON of the workspace; a file with comments (JSONC) is read as none, said once. */
function readSettings(file) {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    log(`${file} is not plain JSON (comments?): its mtrl.aws.profile is not looked at`);
    return {};
  }
}

/** Your own folder from `npm start -- <folder>`, opened in place; undefined for the demo. */
function ownFolder() {
  const given = process.argv[2];
  if (!given) return undefined;
  const folder = path.resolve(given);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new MissingPrerequisite(
      `${given} is not a folder: run \`npm start -- <path to your workspace folder>\` (or \`npm start\` for the demo).`,
    );
  return folder;
}

/** Real AWS when the user points at it (a profile in the demo settings or credentials in the environment). */
function wantsRealAws(settings) {
  return Boolean(settings['mtrl.aws.profile'] || process.env.AWS_PROFILE || process.env.AWS_ACCESS_KEY_ID);
}

/** The desktop VS Code executable (the same lookup as `npm run test:desktop`), unless the browser one is asked for. */
function desktopCode() {
  if (process.env.MTRL_START_BROWSER === '1') return undefined;
  const found = findDesktopVsCode(machineLookup());
  if (found.missing) log(`${found.missing}: using the browser VS Code`);
  return found.executable;
}

async function screenshotContainer(url, folder) {
  const workbench = await openWorkbench(url, folder);
  const container = workbench.page.locator('.part.activitybar .action-item a[aria-label^="MTRL"]').first();
  await container.waitFor({ timeout: 30_000 });
  await container.click();
  // The trees load after the click; a screenshot before that shows only progress bars (then rows without costs).
  const jobsView = workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header[aria-label^="Jobs"]') });
  await jobsView
    .locator('.monaco-list-row[aria-level="2"]')
    .first()
    .waitFor({ timeout: 60_000 })
    .then(() => jobsView.locator('.monaco-progress-container.active').first().waitFor({ state: 'hidden', timeout: 30_000 }))
    .catch(() => cleaning || log('the Jobs view did not finish loading: the screenshot shows it as it is'));
  mkdirSync(path.join(root, 'test-results'), { recursive: true });
  await workbench.page.screenshot({ path: path.join(root, 'test-results/start.png') });
  await workbench.close();
  log('saved test-results/start.png');
}

/** The desktop path runs the source tree's dist/, so it needs a fresh development build. */
function build() {
  if (spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0)
    throw new Error('npm run build failed');
}

/** Starts the emulator unless the user wants real AWS; returns the settings and environment that point at it. */
async function awsTarget(settings, cli) {
  if (wantsRealAws(settings)) {
    log('using real AWS (a profile or credentials are set)');
    return { settings: {}, env: {} };
  }
  if (!hasEmulator(cli)) {
    log('no `mtrl emulator` in this build and no AWS credentials: AWS views will show their error state');
    return { settings: {}, env: {} };
  }
  const emulator = await startEmulator(cli, { logStream: createWriteStream(path.join(runDir, 'emulator.log')) });
  log(`emulator at ${emulator.url} (log ${path.join(runDir, 'emulator.log')})`);
  return { settings: { 'mtrl.aws.endpoint': emulator.url, 'mtrl.aws.region': 'us-east-1' }, env: emulatorEnvironment(emulator.url) };
}

async function main() {
  const own = ownFolder();
  const workspace = own ?? path.join(runDir, 'demo-workspace');
  if (!own) cpSync(path.join(root, 'test/fixtures/demo-workspace'), workspace, { recursive: true });
  const settingsFile = path.join(workspace, '.vscode/settings.json');
  const settings = readSettings(settingsFile);
  const code = desktopCode();

  let cli = path.join(root, 'dist/cli.js');
  let extensionsDir;
  if (code) {
    build();
  } else {
    log('packaging the extension');
    const vsix = await packageExtension(root, runDir, log);
    extensionsDir = path.join(runDir, 'extensions');
    mkdirSync(extensionsDir);
    cli = path.join(installVsix(vsix, extensionsDir).dir, 'dist/cli.js');
  }
  const aws = await awsTarget(settings, cli);
  // Your own folder is never written to: the emulator's endpoint goes into the temporary profile's user settings.
  const userSettings = own ? aws.settings : {};
  if (!own) {
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    writeFileSync(settingsFile, JSON.stringify({ ...settings, ...aws.settings }, null, 2));
  }
  const env = { ...process.env, ...aws.env };

  if (code) {
    const userDataDir = path.join(runDir, 'user-data');
    if (own) writeUserSettings(userDataDir, userSettings);
    const args = desktopStartArgs({ root, workspace, userDataDir, trusted: !own });
    log(`opening desktop VS Code: ${code} ${args.join(' ')}`);
    const child = startProcess(code, args, { env, stdio: 'inherit' });
    await new Promise((resolve) => child.on('exit', resolve));
    return;
  }

  const serverNode = await ensureNode(NODE_VERSION, log);
  const codeServer = await ensureCodeServer(serverNode, log);
  const userDataDir = path.join(runDir, 'user-data');
  // The demo copy is ours; your folder is asked about as VS Code asks, and until you trust it no Python of it runs.
  writeUserSettings(userDataDir, { ...browserStartSettings({ trusted: !own }), ...userSettings });
  const server = await startServer({
    codeServer,
    serverNode,
    userDataDir,
    serverDataDir: path.join(runDir, 'server-data'),
    extensionsDir,
    env,
    logFile: path.join(runDir, 'server.log'),
  });
  console.log(`\nopen ${server.url}/?folder=${encodeURIComponent(workspace)}\n`);
  log(
    own
      ? `your folder: ${workspace} (opened in place, in Restricted Mode until you trust it); Ctrl-C to stop`
      : `demo workspace copy: ${workspace} (deleted on exit); Ctrl-C to stop`,
  );
  if (process.env.MTRL_START_SCREENSHOT === '1') await screenshotContainer(server.url, workspace);
  await new Promise((resolve) => server.child.on('exit', resolve));
  if (!cleaning) log('the VS Code server exited');
}

try {
  await main();
} catch (error) {
  // Ctrl-C closes the browser and server under a running step; that step's error is expected.
  if (!cleaning) console.error(`start: ${error instanceof MissingPrerequisite ? error.message : (error?.stack ?? String(error))}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
