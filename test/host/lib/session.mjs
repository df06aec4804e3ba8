// One session: a fresh VS Code server with the run's extensions, the workbench in Chromium, the runner's report.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startProcess, stopProcess, waitForOutput } from './processes.mjs';
import { MissingPrerequisite } from './install.mjs';
import { ceiling } from './wait.mjs';

export const CHROMIUM = process.env.MTRL_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-default-apps',
];
const browsers = new Set();
/** How often a page's or a webview frame's waitForFunction checks its condition (see openWorkbench). */
export const POLL_MS = 100;

export function checkChromium() {
  if (!existsSync(CHROMIUM))
    throw new MissingPrerequisite(`Chromium not found at ${CHROMIUM}: apt-get install chromium (or set MTRL_CHROMIUM)`);
}

export async function closeBrowsers() {
  await Promise.all([...browsers].map((b) => b.close().catch(() => {})));
}

/** Starts server-main.js directly on a free loopback port; resolves once it listens. */
export async function startServer({ codeServer, serverNode, userDataDir, serverDataDir, extensionsDir, env, logFile }) {
  const args = [
    codeServer.serverMain,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--without-connection-token',
    '--accept-server-license-terms',
    '--disable-telemetry',
    '--user-data-dir',
    userDataDir,
    '--server-data-dir',
    serverDataDir,
    '--extensions-dir',
    extensionsDir,
    // The server would start its first extension host only after a login shell (`bash -i -l`, the user's ~/.bashrc) printed
    // its environment: 0.5 s idle, 7-13 s at load 30+, and past VS Code's 10 s limit it fails ("Unable to resolve your
    // shell environment"). The harness gives the server the environment its tests need; `npm start` runs from the
    // user's shell, whose environment the server inherits.
    '--force-disable-user-env',
  ];
  const child = startProcess(serverNode.node, args, {
    env: { ...env, PATH: `${path.dirname(serverNode.node)}:${env.PATH}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const match = await waitForOutput(child, /listening on (\d+)/, { timeoutMs: ceiling(60_000), what: 'The VS Code server' });
  return { child, url: `http://127.0.0.1:${match[1]}` };
}

/** Writes the user settings the server reads for this session. */
export function writeUserSettings(userDataDir, settings) {
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  writeFileSync(path.join(userDataDir, 'User/settings.json'), JSON.stringify(settings, null, 2));
}

/**
 * Writes the remote machine's settings (a remote window's "Remote" settings tab): a machine-scoped setting such as
 * `workbench.welcomePage.walkthroughs.openOnInstall` is read only from there in a remote window (and code-server's is one).
 */
export function writeMachineSettings(userDataDir, settings) {
  mkdirSync(path.join(userDataDir, 'Machine'), { recursive: true });
  writeFileSync(path.join(userDataDir, 'Machine/settings.json'), JSON.stringify(settings, null, 2));
}

/** The host reward: the final design fixture (its one copy) under a line that leaves python-ran.marker, which proves Python ran. */
const HOST_REWARD_HEADER = `"""Host-test reward: the final design. Importing it leaves python-ran.marker beside it, which proves Python ran."""
import pathlib

pathlib.Path(__file__).with_name("python-ran.marker").write_text("imported")

`;

/** The fixture folder of a phase (every suite and UI check group copies it; never opened itself): `from` plus the host reward. */
export function prepareFixture(from, to) {
  cpSync(from, to, { recursive: true });
  const design = readFileSync(path.join(from, '../reward/final_design.py'), 'utf8').split('\n').slice(1).join('\n');
  writeFileSync(path.join(to, 'reward/wordle_reward.py'), HOST_REWARD_HEADER + design);
  return to;
}

/** Waits for the workbench to draw, then turns its animations off. */
async function shown(page) {
  await page.locator('.monaco-workbench').waitFor({ timeout: ceiling(60_000) });
  await page.addStyleTag({ content: '*, *::before, *::after { animation: none !important; }' });
}

/** Loads the workbench page again: a browser reload, since a window that does not answer cannot run Reload Window. */
export async function reopenWorkbench(page) {
  await page.reload({ timeout: ceiling(180_000) });
  await shown(page);
}

export async function openWorkbench(url, folder) {
  // Our own signal handlers close the browser with everything else; Playwright's would exit before they run.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  browsers.add(browser);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  // An action given no timeout of its own waits as long as the load allows, not Playwright's fixed 30 s (run out at load 60).
  page.setDefaultTimeout(ceiling(30_000));
  // Playwright polls a waitForFunction on every animation frame unless told otherwise, which keeps the renderer and the
  // compositor drawing while it lasts: an idle window's Chromium took 1.1-2.2 s of CPU per 15 s of such a wait, 0.2-0.35 s
  // at 100 ms, which is as prompt for a check. On a CPU-bound CI every such second is a second of wall time.
  const waitForFunction = page.waitForFunction.bind(page);
  page.waitForFunction = (condition, arg, options) => waitForFunction(condition, arg, { polling: POLL_MS, ...options });
  const consoleErrors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`, { timeout: ceiling(180_000) });
  await shown(page);
  return {
    page,
    consoleErrors,
    close: async () => {
      browsers.delete(browser);
      await browser.close().catch(() => {});
    },
  };
}

/** The extension host's log files (remoteexthost.log, output channels), wherever this server version puts them. */
export function hostLogFiles(dirs) {
  const found = [];
  const walk = (dir, depth) => {
    if (depth > 6 || !existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, depth + 1);
      else if (entry.name.endsWith('.log') && /exthost/.test(full)) found.push(full);
    }
  };
  for (const dir of dirs) walk(dir, 0);
  return found;
}

/** Copies the extension host's logs into one folder. */
export function collectHostLogs(dirs, into) {
  mkdirSync(into, { recursive: true });
  const copied = hostLogFiles(dirs);
  for (const full of copied) {
    const name = full
      .replace(/^.*?[\\/]logs[\\/]/, '')
      .replace(/^.*?exthost\d*[\\/]/, '')
      .replace(/[\\/]/g, '__');
    cpSync(full, path.join(into, name));
  }
  return copied;
}

export { stopProcess };
