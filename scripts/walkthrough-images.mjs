// `node scripts/walkthrough-images.mjs`: takes the Getting Started walkthrough's pictures from the real views (the packaged
// extension in the browser VS Code on the demo workspace, against the local emulator), in the light and the dark theme,
// into media/walkthrough/. The board and the signal report are the pictures the unit tests take of those apps in real
// Chromium (test-results/, left by `npm test`). Run it by hand when a view changes; the pictures are committed.
import { copyFileSync, cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { emulatorEnvironment, startEmulator } from '../test/host/lib/emulator.mjs';
import { installVsix, packageExtension } from '../test/host/lib/extensions.mjs';
import { ensureCodeServer, ensureNode, NODE_VERSION } from '../test/host/lib/install.mjs';
import { stopAll } from '../test/host/lib/processes.mjs';
import { closeBrowsers, openWorkbench, startServer, writeMachineSettings, writeUserSettings } from '../test/host/lib/session.mjs';
import { palette } from '../test/host/ui/replay.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = path.join(root, 'media/walkthrough');
const runDir = mkdtempSync(path.join(os.tmpdir(), 'mtrl-walkthrough-'));
const log = (message) => console.log(`walkthrough-images: ${message}`);
const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern' };

/** Clips a part of the workbench (a CSS selector, or a box) into media/walkthrough/<name>-<theme>.png. */
async function shoot(page, name, theme, part) {
  const box = typeof part === 'string' ? await page.locator(part).first().boundingBox() : part;
  await page.screenshot({ path: path.join(out, `${name}-${theme}.png`), clip: box });
  log(`${name}-${theme}.png`);
}

async function openFile(page, file) {
  await palette(page, file, file);
  await page.locator('.tabs-container .tab', { hasText: file }).first().waitFor({ timeout: 30_000 });
}

async function capture({ url, workspace, theme }) {
  const { page, close } = await openWorkbench(url, workspace);
  try {
    const container = page.locator('.part.activitybar .action-item a[aria-label^="MTRL"]').first();
    await container.click({ timeout: 60_000 });
    await page.mouse.move(900, 500);
    const jobs = page.locator('.pane', { has: page.locator('.pane-header[aria-label^="Jobs"]') });
    await jobs.locator('.monaco-list-row[aria-level="2"]').first().waitFor({ timeout: 120_000 });
    await jobs.locator('.monaco-progress-container.active').first().waitFor({ state: 'hidden', timeout: 60_000 });
    await shoot(page, 'jobs', theme, '.part.sidebar');
    const sidebar = await page.locator('.part.sidebar').boundingBox();
    const statusbar = await page.locator('.part.statusbar').boundingBox();
    await shoot(page, 'connect', theme, {
      x: 0,
      y: sidebar.y,
      width: sidebar.x + sidebar.width,
      height: statusbar.y + statusbar.height - sidebar.y,
    });
    const runtimes = page.locator('.pane-header', { hasText: 'Agent Runtimes' }).first();
    if ((await runtimes.getAttribute('aria-expanded')) !== 'true') await runtimes.click();
    await page
      .locator('.pane', { has: page.locator('.pane-header', { hasText: 'Agent Runtimes' }) })
      .locator('.monaco-list-row')
      .first()
      .waitFor({ timeout: 60_000 });
    await shoot(page, 'smoke', theme, '.part.sidebar');

    await openFile(page, 'training-data.jsonl');
    await shoot(page, 'dataset', theme, '.part.editor');
    await openFile(page, 'refund.mtrl-reward.json');
    await page.locator('.codelens-decoration', { hasText: '·' }).first().waitFor({ timeout: 120_000 });
    await shoot(page, 'reward', theme, '.part.editor');
    await openFile(page, 'wordle-training.mtrl.json');
    await page.locator('.codelens-decoration', { hasText: 'Launch' }).first().waitFor({ timeout: 60_000 });
    await shoot(page, 'launch', theme, '.part.editor');
  } finally {
    await close();
  }
}

/** The webview apps as the unit tests drew them in real Chromium, in both themes. */
const APP_PICTURES = {
  replay: { light: 'replay-support-900-light.png', dark: 'replay-support-900-dark.png' },
  signal: { light: 'signal-light-560px.png', dark: 'signal-dark-560px.png' },
};

async function main() {
  mkdirSync(out, { recursive: true });
  for (const [name, themes] of Object.entries(APP_PICTURES))
    for (const [theme, file] of Object.entries(themes)) {
      const from = path.join(root, 'test-results', file);
      if (!existsSync(from)) throw new Error(`${from} is missing: run the unit tests first (npm test, or npm run test:unit).`);
      copyFileSync(from, path.join(out, `${name}-${theme}.png`));
    }
  const vsix = await packageExtension(root, runDir, log);
  const extensionsDir = path.join(runDir, 'extensions');
  mkdirSync(extensionsDir);
  const cli = path.join(installVsix(vsix, extensionsDir).dir, 'dist/cli.js');
  const emulator = await startEmulator(cli, { logStream: createWriteStream(path.join(runDir, 'emulator.log')) });
  const serverNode = await ensureNode(NODE_VERSION, log);
  const codeServer = await ensureCodeServer(serverNode, log);
  for (const [theme, colorTheme] of Object.entries(THEMES)) {
    const workspace = path.join(runDir, `demo-${theme}`);
    cpSync(path.join(root, 'test/fixtures/demo-workspace'), workspace, { recursive: true });
    mkdirSync(path.join(workspace, '.vscode'));
    writeFileSync(
      path.join(workspace, '.vscode/settings.json'),
      JSON.stringify({ 'mtrl.aws.endpoint': emulator.url, 'mtrl.aws.region': 'us-east-1' }),
    );
    const userDataDir = path.join(runDir, `user-${theme}`);
    writeUserSettings(userDataDir, {
      'security.workspace.trust.enabled': false,
      'workbench.startupEditor': 'none',
      'workbench.colorTheme': colorTheme,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.disableAIFeatures': true,
      'telemetry.telemetryLevel': 'off',
    });
    writeMachineSettings(userDataDir, { 'workbench.welcomePage.walkthroughs.openOnInstall': false });
    const server = await startServer({
      codeServer,
      serverNode,
      userDataDir,
      serverDataDir: path.join(runDir, `server-${theme}`),
      extensionsDir,
      env: { ...process.env, ...emulatorEnvironment(emulator.url) },
      logFile: path.join(runDir, `server-${theme}.log`),
    });
    await capture({ url: server.url, workspace, theme });
  }
}

try {
  await main();
} finally {
  await closeBrowsers();
  await stopAll();
  rmSync(runDir, { recursive: true, force: true });
}
