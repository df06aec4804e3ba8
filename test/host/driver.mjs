// `npm run test:host`: the packaged extension in a real VS Code (code-server's server) and Chromium, offline.
// `--desktop` (`npm run test:desktop`): the same suites in an installed desktop VS Code through @vscode/test-electron.
// `--oldest` (`npm run test:oldest`): the minimum-version lane, a few suites on the oldest VS Code we test (1.103);
// with MTRL_HOST_GREP set (empty for all), the suites it names instead.
// Prints each result and `<kind>: N passed, N failed`, writes test-results/<kind>-summary.json, exits 1 on any failure.
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { clearInterval, setInterval } from 'node:timers';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { hasEmulator, startEmulator } from './lib/emulator.mjs';
import { bundleSuites, installRunner, installVsix, packageExtension } from './lib/extensions.mjs';
import {
  checkPython3,
  ensureCodeServer,
  ensureNode,
  ensureOldestCodeServer,
  MissingPrerequisite,
  NODE_VERSION,
  OLDEST_NODE_VERSION,
} from './lib/install.mjs';
import { cleanUpOnSignals, stopAll } from './lib/processes.mjs';
import { runFirstRunChecks } from './lib/first-run.mjs';
import { runSession } from './lib/run-session.mjs';
import { uiQueue } from './lib/ui-queue.mjs';
import { checkChromium, closeBrowsers } from './lib/session.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const { formatResults, summarize } = await tsImport('./lib/report.ts', import.meta.url);
const { selects } = await tsImport('./lib/selection.ts', import.meta.url);
const { findDesktopVsCode, machineLookup } = await tsImport('./lib/desktop.ts', import.meta.url);
const { LOAD_AT_START_VARIABLE, loadFactor } = await tsImport('./lib/ceiling.ts', import.meta.url);
// Measured once, before this run adds its own load; every wait's ceiling (here and in the VS Code server) scales with it.
process.env[LOAD_AT_START_VARIABLE] ??= loadFactor().toFixed(2);
const desktop = process.argv.includes('--desktop');
const oldest = process.argv.includes('--oldest');
const kind = desktop ? 'desktop' : oldest ? 'oldest' : 'host';
const results = path.join(root, 'test-results');
// What the lane proves on 1.103: activation in both trust phases, the Jobs view with a pipeline expanded, the
// walkthrough, one webview app and one lens.
const OLDEST_LANE = [
  'activation',
  'untrusted workspace',
  'jobs view labels: the SDK pipeline pair under one node',
  '#41 walkthrough: MTRL: Get Started opens every step',
  '#41 first run: a new window',
  'replay board opens a log file',
  '#17 reward lens: in a fresh window',
].join(' | ');
const grep = process.env.MTRL_HOST_GREP ?? (oldest ? OLDEST_LANE : '');
const timeoutMs = Number(process.env.MTRL_HOST_TIMEOUT ?? 600) * 1000;
const keep = process.env.MTRL_HOST_KEEP === '1';
const onlyPhase = process.env.MTRL_HOST_PHASE ?? '';
const started = Date.now();
const log = (message) => console.log(`host [${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}`);

const runDir = mkdtempSync(path.join(os.tmpdir(), 'mtrl-host-'));
// Collected in the run dir and published at the end, so concurrent runs never write into each other's files.
const artifacts = path.join(runDir, 'artifacts');
mkdirSync(artifacts);
let cleaning;
/** Once, however many callers (Ctrl-C while main's own finally runs): each waits for the same cleanup. */
function cleanup() {
  cleaning ??= cleanUp();
  return cleaning;
}
async function cleanUp() {
  await closeBrowsers();
  await stopAll();
  rmSync(path.join(results, kind), { recursive: true, force: true });
  mkdirSync(results, { recursive: true });
  cpSync(artifacts, path.join(results, kind), { recursive: true });
  if (!keep) rmSync(runDir, { recursive: true, force: true });
}
cleanUpOnSignals(cleanup);

function writeSummary(summary) {
  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, `${kind}-summary.json`), JSON.stringify(summary));
}

async function main() {
  const vscode = desktop ? findDesktopVsCode(machineLookup()) : undefined;
  if (vscode?.missing) throw new MissingPrerequisite(vscode.missing);
  if (vscode) log(`desktop VS Code ${vscode.executable} (from ${vscode.from})`);
  else checkChromium();
  checkPython3();
  const suiteDir = path.join(root, 'test/host/suite');
  const suites = existsSync(suiteDir)
    ? readdirSync(suiteDir)
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => path.join(suiteDir, f))
    : [];
  const untrustedSuites = suites.filter((f) => f.endsWith('.untrusted.test.ts'));
  const trustedSuites = suites.filter((f) => !f.endsWith('.untrusted.test.ts'));

  log(
    `${desktop ? 'packaging the extension' : 'getting Node and the VS Code server, packaging the extension'}; waits scale by ${process.env[LOAD_AT_START_VARIABLE]} (load per core, at least 2)`,
  );
  const serverReady = desktop
    ? Promise.resolve({})
    : oldest
      ? ensureNode(OLDEST_NODE_VERSION, log).then(async (serverNode) => ({
          serverNode,
          codeServer: await ensureOldestCodeServer(serverNode, log),
        }))
      : ensureNode(NODE_VERSION, log).then(async (serverNode) => ({ serverNode, codeServer: await ensureCodeServer(serverNode, log) }));
  const vsix = await packageExtension(root, runDir, log);
  const { serverNode, codeServer } = await serverReady;
  log(`packaged ${path.basename(vsix)}${codeServer ? `; VS Code server ${codeServer.version} in ${codeServer.home}` : ''}`);

  const extensionsDir = path.join(runDir, 'extensions');
  mkdirSync(extensionsDir);
  const product = installVsix(vsix, extensionsDir);
  // Desktop: the runner is the development extension (test-electron needs one), so it stays out of the extensions dir.
  const runner = await installRunner(root, desktop ? path.join(runDir, 'development') : extensionsDir);
  // Inside the runner's folder, so the host attributes the suites' require('vscode') to an installed extension.
  const trustedBundles = await bundleSuites(trustedSuites, path.join(runner.dir, 'suites/trusted'));
  const untrustedBundles = await bundleSuites(untrustedSuites, path.join(runner.dir, 'suites/untrusted'));
  // The contagion self-test's writer and reader: run only inside the harness suite, never on their own.
  const selfTestBundles = await bundleSuites(
    ['contagion-writer.test.ts', 'contagion-reader.test.ts'].map((f) => path.join(root, 'test/host/selftest', f)),
    path.join(runner.dir, 'suites/selftest'),
  );

  const uiDir = path.join(root, 'test/host/ui');
  const uiChecks = [];
  for (const file of existsSync(uiDir)
    ? readdirSync(uiDir)
        .filter((f) => f.endsWith('.mjs'))
        .sort()
    : []) {
    // A file's checks form a group: the group starts from a known state (see run-session.mjs).
    uiChecks.push(...(await import(path.join(uiDir, file))).checks.map((check) => ({ ...check, group: file })));
  }

  const cli = path.join(product.dir, 'dist/cli.js');
  // The trusted phase's suites and its UI checks run side by side in the browser harness, each against its own emulator:
  // both stop, launch and delete jobs, and each expects the seeded account it started from. Not in the lane, whose few
  // suites end in seconds: a second server there would cost more than it saves.
  const splitTrusted = !desktop && !oldest && uiChecks.some((c) => (c.phase ?? 'trusted') === 'trusted' && selects(grep, `ui: ${c.name}`));
  const emulatorUrls = [];
  if (hasEmulator(cli)) {
    const start = (name, runningSpeed) =>
      startEmulator(cli, { logStream: createWriteStream(path.join(artifacts, `${name}.log`)), runningSpeed }).then((e) => e.url);
    // The suites' seeded running job at a quarter of the emulator's pace: 45 minutes of steps (one every 30 s), where
    // the default's 11 minutes ran out before their running-job checks on a busy machine. The UI checks' job runs at the
    // default pace (a step every 7.5 s, 11 minutes) on an idle machine, slowed as their waits stretch: they watch it move,
    // then stop it, and at load 37 (three CIs at once) it had finished before their last checks.
    const uiSpeed = Math.round((60 * 2) / Number(process.env[LOAD_AT_START_VARIABLE]));
    emulatorUrls.push(...(await Promise.all([start('emulator', 15), ...(splitTrusted ? [start('emulator-ui', uiSpeed)] : [])])));
    log(`emulator at ${emulatorUrls.join(' and ')}`);
  } else {
    log('the CLI has no `emulator` command yet: AWS settings left unset');
  }
  const [emulatorUrl, uiEmulatorUrl = emulatorUrl] = emulatorUrls;

  if (desktop && uiChecks.length) log(`the ${uiChecks.length} UI checks drive the browser workbench: they run in npm run test:host only`);
  const session = desktop ? (await import('./lib/desktop-session.mjs')).runDesktopSession : runSession;
  const common = {
    root,
    runDir,
    artifacts,
    serverNode,
    codeServer,
    executable: vscode?.executable,
    runnerDir: runner.dir,
    extensionsDir,
    selfTestBundles,
    manifest: product.manifest,
    emulatorUrl,
    grep,
    timeoutMs,
    uiChecks: desktop ? [] : uiChecks,
    log,
  };
  // The untrusted phase and the first windows start once the trusted suites end, or sooner once the minimum-version lane
  // beside this run has ended (`npm test` names its summary file): at the start the trusted sessions, their emulators and
  // the lane already keep both cores busy (load 20-24 in CI), and started after the suites these ran last.
  let suitesEnd = () => {};
  const suitesEnded = splitTrusted && onlyPhase !== 'untrusted' ? new Promise((resolve) => (suitesEnd = resolve)) : undefined;
  const laneSummary = process.env.MTRL_HOST_AFTER_LANE;
  const othersMayStart = new Promise((resolve) => {
    if (!suitesEnded) return resolve();
    suitesEnded.then(resolve);
    if (!laneSummary) return;
    const poll = setInterval(() => existsSync(laneSummary) && (clearInterval(poll), resolve()), 1_000);
    suitesEnded.then(() => clearInterval(poll));
  });
  const trusted = async () => {
    if (onlyPhase === 'untrusted') return [];
    if (!splitTrusted) return session({ ...common, phase: 'trusted', bundles: trustedBundles });
    const checks = uiQueue(common.uiChecks.filter((c) => (c.phase ?? 'trusted') === 'trusted'));
    const [suites, ui] = await Promise.all([
      // The suites' session takes groups of UI checks too once its suites end, from the same queue.
      session({ ...common, phase: 'trusted', bundles: trustedBundles, uiChecks: checks, onSuitesEnd: suitesEnd }),
      session({
        ...common,
        phase: 'trusted',
        name: 'trusted-ui',
        bundles: [],
        selfTestBundles: [],
        emulatorUrl: uiEmulatorUrl,
        uiChecks: checks,
      }),
    ]);
    return [...suites, ...ui];
  };
  const others = async () => {
    await othersMayStart;
    const all = [];
    if (onlyPhase !== 'trusted' && (untrustedBundles.length || common.uiChecks.some((c) => c.phase === 'untrusted'))) {
      all.push(...(await session({ ...common, phase: 'untrusted', bundles: untrustedBundles })));
    }
    // A user's first window (#41): VS Code servers of their own, the product alone, no test hooks.
    if (!desktop && onlyPhase !== 'untrusted') all.push(...(await runFirstRunChecks({ ...common, vsix, oldest })));
    return all;
  };
  // In the browser harness the untrusted phase and the first windows run beside the trusted phase's UI checks: each has
  // its own server, profile and workspace, and mostly waits on it. Desktop VS Code runs one window at a time.
  if (desktop) return [...(await trusted()), ...(await others())];
  const [first, second] = await Promise.all([trusted(), others()]);
  return [...first, ...second];
}

let exitCode = 1;
try {
  const all = await main();
  console.log(`\n${formatResults(all)}`);
  const summary = summarize(all);
  writeSummary(summary);
  log(`done; screenshots and logs in test-results/${kind}/`);
  exitCode = summary.failed > 0 ? 1 : 0;
} catch (error) {
  const message = error instanceof MissingPrerequisite ? error.message : (error?.stack ?? String(error));
  console.error(`\n${kind}: ${message}`);
  console.log(`${kind}: 0 passed, 1 failed`);
  writeSummary({ passed: 0, failed: 1 });
} finally {
  await cleanup();
}
process.exit(exitCode);
